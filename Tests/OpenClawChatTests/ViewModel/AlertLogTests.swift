import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The alert list as a plain value: ids a screen can rely on, a bounded list, dismissal by cause.
@Suite("Alert log: pure logic")
struct AlertLogTests {
    private let pairing = ChatAlert.Cause.gateway(.pairingRequired(.init(requestId: "r1", reason: .notPaired)))

    @Test func idsAreUniqueAndIncreasingEvenAfterDismissals() {
        var log = AlertLog()
        let first = log.raise(message: "one", nextStep: nil, cause: .storeFailed)
        log.dismiss(id: first.id)
        let second = log.raise(message: "two", nextStep: nil, cause: .storeFailed)
        let third = log.raise(message: "three", nextStep: "retry", cause: .messageNotKept)
        #expect(first.id < second.id && second.id < third.id)
        #expect(log.alerts.map(\.id) == [second.id, third.id])
    }

    @Test func dismissingAnIdAlreadyGoneLeavesTheNewerAlerts() {
        var log = AlertLog()
        let old = log.raise(message: "old", nextStep: nil, cause: .storeFailed)
        log.dismiss(id: old.id)
        let newer = log.raise(message: "old", nextStep: nil, cause: .storeFailed)
        log.dismiss(id: old.id)
        #expect(log.alerts == [newer])
    }

    @Test func onlyTheNewestAreKept() {
        var log = AlertLog()
        for index in 1...(AlertLog.capacity + 5) {
            log.raise(message: "alert \(index)", nextStep: nil, cause: .storeFailed)
        }
        #expect(log.alerts.count == AlertLog.capacity)
        #expect(log.alerts.first?.message == "alert 6")
        #expect(log.alerts.last?.message == "alert \(AlertLog.capacity + 5)")
    }

    @Test func dismissingByCauseLeavesOtherCausesInOrder() {
        var log = AlertLog()
        log.raise(message: "pairing required", nextStep: nil, cause: pairing)
        let store = log.raise(message: "pairing required", nextStep: nil, cause: .storeFailed)
        log.raise(message: "approve this device", nextStep: nil, cause: pairing)
        let kept = log.raise(message: "not kept", nextStep: nil, cause: .messageNotKept)
        log.dismiss(where: \.isPairingRequired)
        let left = log.alerts
        #expect(left == [store, kept], "the same words with another cause stay")
    }
}
