import Testing

@testable import OpenClawChat

/// The flush rule alone: one flush at a time, and a request made at any point of a pass makes the
/// whole pass run again (issue 38, point 1).
@Suite("Flush schedule")
struct FlushScheduleTests {
    /// Each call's answer, in order: `request()` true means run now; `passEnded` true means go again.
    enum Step { case request, passEnded(canDeliver: Bool) }

    static func answers(_ steps: [Step]) -> (answers: [Bool], state: FlushSchedule.State) {
        var schedule = FlushSchedule()
        var answers: [Bool] = []
        for step in steps {
            switch step {
            case .request: answers.append(schedule.request())
            case .passEnded(let canDeliver): answers.append(schedule.passEnded(canDeliver: canDeliver))
            }
        }
        return (answers, schedule.state)
    }

    @Test func aRequestDuringAPassMakesOneMorePass() {
        let run = Self.answers([.request, .request, .passEnded(canDeliver: true), .passEnded(canDeliver: true)])
        #expect(run.answers == [true, false, true, false])
        #expect(run.state == .idle)
    }

    @Test func manyRequestsDuringOnePassMakeOneMorePass() {
        let run = Self.answers(
            [.request] + Array(repeating: .request, count: 5) + [.passEnded(canDeliver: true)])
        #expect(run.answers == [true] + Array(repeating: false, count: 5) + [true])
        #expect(run.state == .running)
    }

    /// Without a connection the request is dropped: the next connection flushes by itself.
    @Test func aRequestDuringAPassThatLostTheConnectionEndsTheFlush() {
        let run = Self.answers([.request, .request, .passEnded(canDeliver: false), .request])
        #expect(run.answers == [true, false, false, true])
        #expect(run.state == .running)
    }

    /// A sender claims the flush only when none runs, and a refused claim asks nothing of the running one.
    @Test func aClaimIsTakenOnlyWhenIdleAndARefusedOneChangesNothing() {
        var schedule = FlushSchedule()
        let first = schedule.claimIfIdle()
        #expect(first)
        #expect(schedule.state == .running)
        let second = schedule.claimIfIdle()
        #expect(!second)
        #expect(schedule.state == .running, "a refused claim made the running pass go again")
        let again = schedule.passEnded(canDeliver: true)
        #expect(!again)
        #expect(schedule.state == .idle)
    }
}
