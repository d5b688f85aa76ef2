import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The outbox's rules as pure logic: typed inputs in, the changes the store must follow out.
@Suite("Outbox: the state machine")
struct OutboxStateMachineTests {
    static func message(_ id: String, session: String = "main", createdAtMs: Int = 0) -> OutboxMessage {
        OutboxMessage(id: id, gateway: "gw", sessionKey: session, text: "text \(id)", createdAtMs: createdAtMs)
    }

    @Test func messagesAreDeliveredInTheOrderTheyWereTyped() {
        var outbox = Outbox()
        for id in ["a", "b", "c"] { _ = outbox.enqueue(Self.message(id)) }
        _ = outbox.finishAttempt(
            id: "b", outcome: .accepted(ChatSendAck(runId: "b", status: .started)), startedAtMs: 1)
        #expect(outbox.deliveryOrder == ["a", "c"])
        #expect(outbox.deliveryStep(for: "a", nowMs: 1) == .attempt)
        #expect(outbox.deliveryStep(for: "b", nowMs: 1) == nil, "acked: nothing left to deliver")
    }

    @Test func aFullOutboxTakesTheMessageAsFailedWithTheReason() {
        var outbox = Outbox(policy: OutboxPolicy(maxPending: 2))
        _ = outbox.enqueue(Self.message("a"))
        _ = outbox.enqueue(Self.message("b"))
        let third = outbox.enqueue(Self.message("c"))
        guard case .failed(let reason) = third.state else {
            Issue.record("expected the third message to fail, got \(third.state)")
            return
        }
        #expect(reason.contains("2 messages are already waiting"))
        #expect(outbox.contains(id: "c"), "kept for the user to retry or discard")
        #expect(outbox.deliveryOrder == ["a", "b"])
    }

    @Test func anAttemptCountsAndAnAmbiguousOutcomeStartsTheDuplicateWindowAtTheAttempt() {
        var outbox = Outbox(policy: OutboxPolicy(duplicateWindow: .seconds(270)))
        _ = outbox.enqueue(Self.message("a"))
        let sending = outbox.beginAttempt(id: "a", nowMs: 1_000)
        #expect(sending?.state == .sending)
        #expect(sending?.attempts == 1)
        #expect(sending?.lastAttemptAtMs == 1_000)

        let change = outbox.finishAttempt(id: "a", outcome: .ambiguous, startedAtMs: 1_000)
        #expect(change?.message.state == .ambiguous)
        #expect(change?.message.uncertainSinceMs == 1_000)
        // A second ambiguous attempt keeps the first one's start: the gateway's memory runs from there.
        _ = outbox.beginAttempt(id: "a", nowMs: 5_000)
        _ = outbox.finishAttempt(id: "a", outcome: .ambiguous, startedAtMs: 5_000)
        #expect(outbox.message(id: "a")?.uncertainSinceMs == 1_000)
        #expect(outbox.message(id: "a")?.attempts == 2)

        #expect(outbox.deliveryStep(for: "a", nowMs: 1_000 + 269_999) == .attempt)
        #expect(outbox.deliveryStep(for: "a", nowMs: 1_000 + 270_000) == .settleFromHistory)
    }

    @Test func aStopCommandLeavesTheOutboxAndARefusalFailsTheMessage() {
        var outbox = Outbox()
        _ = outbox.enqueue(Self.message("stop"))
        _ = outbox.enqueue(Self.message("bad"))
        #expect(
            outbox.finishAttempt(id: "stop", outcome: .handledAsCommand, startedAtMs: 0)
                == .removed(Self.message("stop")))
        let refused = outbox.finishAttempt(id: "bad", outcome: .rejected(reason: "too long"), startedAtMs: 0)
        #expect(refused?.message.state == .failed(reason: "too long"))
        #expect(outbox.messages.map(\.id) == ["bad"])
        #expect(!outbox.hasUndelivered)
    }

    @Test func anOutcomeForAMessageTheUserDiscardedChangesNothing() {
        var outbox = Outbox()
        _ = outbox.enqueue(Self.message("a"))
        _ = outbox.beginAttempt(id: "a", nowMs: 0)
        #expect(outbox.discard(id: "a") != nil)
        #expect(outbox.finishAttempt(id: "a", outcome: .ambiguous, startedAtMs: 0) == nil)
        #expect(outbox.messages.isEmpty)
        #expect(outbox.discard(id: "a") == nil)
    }

    @Test func aSendInFlightAtTheLastExitBecomesAmbiguousFromItsAttempt() {
        var inFlight = Self.message("a", createdAtMs: 100)
        inFlight.state = .sending
        inFlight.lastAttemptAtMs = 400
        var failed = Self.message("b")
        failed.state = .failed(reason: "refused")
        var outbox = Outbox()
        outbox.restore([inFlight, failed])
        #expect(outbox.message(id: "a")?.state == .ambiguous)
        #expect(outbox.message(id: "a")?.uncertainSinceMs == 400)
        #expect(outbox.message(id: "b")?.state == .failed(reason: "refused"))
        #expect(outbox.deliveryOrder == ["a"])
    }

    @Test func onlyMessagesStillToDeliverExpire() {
        var outbox = Outbox(policy: OutboxPolicy(expiry: .seconds(60)))
        _ = outbox.enqueue(Self.message("queued", createdAtMs: 0))
        _ = outbox.enqueue(Self.message("acked", createdAtMs: 0))
        _ = outbox.finishAttempt(
            id: "acked", outcome: .accepted(ChatSendAck(runId: "acked", status: .ok)), startedAtMs: 0)
        _ = outbox.enqueue(Self.message("fresh", createdAtMs: 30_000))
        #expect(outbox.expire(nowMs: 60_000).isEmpty, "exactly at the expiry it still waits")
        let expired = outbox.expire(nowMs: 60_001)
        #expect(expired.map(\.id) == ["queued"])
        #expect(expired.first?.state == .failed(reason: outbox.policy.expiryReason))
        #expect(outbox.deliveryOrder == ["fresh"])
    }

    @Test func aRetryStartsTheClocksAgainInPlace() {
        var outbox = Outbox()
        _ = outbox.enqueue(Self.message("a", createdAtMs: 0))
        _ = outbox.beginAttempt(id: "a", nowMs: 10)
        _ = outbox.finishAttempt(id: "a", outcome: .ambiguous, startedAtMs: 10)
        _ = outbox.markUnconfirmed(id: "a")
        guard let unconfirmed = outbox.message(id: "a") else {
            Issue.record("the message must stay for the user")
            return
        }
        #expect(unconfirmed.state == .unconfirmed)
        let change = outbox.requeue(unconfirmed, nowMs: 900_000)
        #expect(change.message.state == .queued)
        #expect(change.message.createdAtMs == 900_000)
        #expect(change.message.uncertainSinceMs == nil)
        guard case .updated = change else {
            Issue.record("a message already in the outbox is updated in place, got \(change)")
            return
        }
        // One the outbox no longer holds (its row survived, the message did not) comes back as new.
        guard case .added = outbox.requeue(Self.message("gone"), nowMs: 1) else {
            Issue.record("expected the message to be added")
            return
        }
        #expect(outbox.messages.map(\.id) == ["a", "gone"])
    }

    @Test func historyDecidesAnUncertainMessageOnce() {
        var outbox = Outbox()
        _ = outbox.enqueue(Self.message("shown"))
        _ = outbox.enqueue(Self.message("missing"))
        #expect(outbox.confirm(["shown"]).map(\.id) == ["shown"])
        #expect(outbox.markUnconfirmed(id: "shown") == nil, "history showed it: nothing to mark")
        #expect(outbox.markUnconfirmed(id: "missing")?.state == .unconfirmed)
        #expect(outbox.markUnconfirmed(id: "missing") == nil, "already waiting for the user")
    }

    @Test func otherSessionsWithAckedMessagesAreConfirmedFromTheirOwnHistory() {
        var outbox = Outbox()
        for (id, session) in [("a", "main"), ("b", "work"), ("c", "work"), ("d", "ops")] {
            _ = outbox.enqueue(Self.message(id, session: session))
        }
        for id in ["a", "b", "c"] {
            _ = outbox.finishAttempt(
                id: id, outcome: .accepted(ChatSendAck(runId: id, status: .started)), startedAtMs: 0)
        }
        #expect(outbox.sessionsAwaitingConfirmation(besides: "main") == ["work"])
    }

    /// Its run's events prove a message arrived whose answer was lost: it is not sent again, and a lost
    /// answer to an attempt in flight meanwhile does not make it undelivered.
    @Test func eventsProveAMessageArrived() {
        var outbox = Outbox()
        _ = outbox.enqueue(Self.message("a"))
        _ = outbox.beginAttempt(id: "a", nowMs: 10)
        _ = outbox.finishAttempt(id: "a", outcome: .ambiguous, startedAtMs: 10)
        #expect(outbox.deliveryOrder == ["a"])
        #expect(outbox.markAccepted(id: "a")?.state == .accepted)
        #expect(outbox.message(id: "a")?.uncertainSinceMs == nil)
        #expect(outbox.deliveryOrder.isEmpty, "proved delivered: never sent again")
        #expect(outbox.markAccepted(id: "a") == nil, "already accepted")

        _ = outbox.enqueue(Self.message("b"))
        _ = outbox.beginAttempt(id: "b", nowMs: 20)
        _ = outbox.markAccepted(id: "b")
        _ = outbox.finishAttempt(id: "b", outcome: .ambiguous, startedAtMs: 20)
        #expect(outbox.message(id: "b")?.state == .accepted, "the events came first; the lost answer changes nothing")
        _ = outbox.finishAttempt(id: "b", outcome: .rejected(reason: "late refusal"), startedAtMs: 20)
        #expect(outbox.message(id: "b")?.state == .accepted, "nor does a refusal: the reply is streaming")

        _ = outbox.enqueue(Self.message("never-sent"))
        #expect(outbox.markAccepted(id: "never-sent") == nil, "events cannot prove what was never sent")
        #expect(outbox.deliveryOrder.contains("never-sent"))
        #expect(outbox.awaitingConfirmation(inSession: "main").map(\.id) == ["a", "b"])
    }

    @Test(arguments: [true, false])
    func restoredRowsShowTheOutboxState(isConnected: Bool) {
        let states: [OutboxState] = [
            .queued, .sending, .ambiguous, .accepted, .failed(reason: "refused"), .unconfirmed,
        ]
        for state in states {
            var message = Self.message("a")
            message.state = state
            var transcript = Transcript(sessionKey: "main")
            for action in message.restoredRowActions(isConnected: isConnected) { transcript.apply(action) }
            #expect(
                transcript.entry(id: "a")?.status == state.rowStatus(isConnected: isConnected),
                "\(state), connected: \(isConnected)")
        }
        var sending = Self.message("s")
        sending.state = .sending
        #expect(sending.rowStatusAfterRestore(isConnected: false) == .queued, "offline, a send in flight waits")
        #expect(sending.rowStatusAfterRestore(isConnected: true) == .sending)

        var unconfirmed = Self.message("b")
        unconfirmed.state = .unconfirmed
        guard case .send(let shown) = unconfirmed.restoredRowActions(isConnected: true).first else {
            Issue.record("the row is shown first")
            return
        }
        #expect(shown.isAttempt, "an unconfirmed message may have left, so history may match it")

        guard case .send(let typedOffline) = Self.message("c").restoredRowActions(isConnected: true).first else {
            Issue.record("the row is shown first")
            return
        }
        #expect(!typedOffline.isAttempt, "a queued message never left: history must not match it by text")
    }
}

extension OutboxMessage {
    fileprivate func rowStatusAfterRestore(isConnected: Bool) -> TranscriptEntryStatus? {
        var transcript = Transcript(sessionKey: sessionKey)
        for action in restoredRowActions(isConnected: isConnected) { transcript.apply(action) }
        return transcript.entry(id: id)?.status
    }
}
