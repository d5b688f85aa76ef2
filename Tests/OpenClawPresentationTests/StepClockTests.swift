import Foundation
import Testing

@testable import OpenClawPresentation

@MainActor
@Suite("The live line's clock")
struct StepClockTests {
    @Test func aStepKeepsTheInstantItWasFirstSeenWhateverAsksLater() {
        let clock = StepClock()
        let first = Date(timeIntervalSince1970: 1_000)
        #expect(clock.start(of: "exec-1", now: first) == first)
        #expect(clock.start(of: "exec-1", now: first.addingTimeInterval(60)) == first, "a row built again")
        let next = first.addingTimeInterval(61)
        #expect(clock.start(of: "exec-2", now: next) == next, "a new step starts its own clock")
    }

    @Test func onlyTheLatestStepsAreRemembered() {
        let clock = StepClock()
        let early = Date(timeIntervalSince1970: 0)
        _ = clock.start(of: "step-0", now: early)
        for index in 1...StepClock.capacity { _ = clock.start(of: "step-\(index)", now: early) }
        let later = Date(timeIntervalSince1970: 500)
        #expect(clock.start(of: "step-0", now: later) == later, "forgotten past the capacity")
        #expect(clock.start(of: "step-\(StepClock.capacity)", now: later) == early)
    }
}
