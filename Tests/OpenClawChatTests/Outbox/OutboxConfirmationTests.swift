import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The outbox's rules for leaving it: what history confirms, what a session's page must settle, what a
/// one-shot command may withdraw, and which outcomes hold back the messages typed after.
@Suite("Outbox: confirmation, withdrawal and order")
struct OutboxConfirmationTests {
    static func message(_ id: String, session: String = "main") -> OutboxMessage {
        OutboxMessage(id: id, gateway: "gw", sessionKey: session, text: "text \(id)", createdAtMs: 0)
    }

    static func ack(_ id: String) -> SendAttemptOutcome {
        .accepted(ChatSendAck(runId: id, status: .started))
    }

    /// Four messages of the current session and one of another: shown by history, acked with its row
    /// gone, acked and still shown as sent from here, queued with no row.
    static func outbox() -> Outbox {
        var outbox = Outbox()
        for id in ["shown", "acked-gone", "acked-local", "queued"] { _ = outbox.enqueue(message(id)) }
        _ = outbox.enqueue(message("elsewhere", session: "other"))
        for id in ["acked-gone", "acked-local", "elsewhere"] {
            _ = outbox.finishAttempt(id: id, outcome: ack(id), startedAtMs: 1)
        }
        return outbox
    }

    @Test func historyConfirmsWhatItShowsAndAnAckedMessageWhoseRowWentWithItsRun() {
        let rows: [String: TranscriptEntry] = [
            "shown": TranscriptEntry(id: "shown", role: .user, status: .complete, source: .history),
            "acked-local": TranscriptEntry(id: "acked-local", role: .user, status: .sent, source: .local),
        ]
        let delivered = Self.outbox().delivered(inSession: "main") { rows[$0] }
        #expect(delivered == ["shown", "acked-gone"])
        #expect(Self.outbox().delivered(inSession: "other") { _ in nil } == ["elsewhere"])
    }

    @Test func aSessionsPageSettlesItsAckedMessagesAndTheOnesAskedAbout() {
        let outbox = Self.outbox()
        #expect(outbox.awaitingConfirmation(inSession: "main").map(\.id) == ["acked-gone", "acked-local"])
        #expect(
            outbox.awaitingConfirmation(inSession: "main", including: ["queued"]).map(\.id)
                == ["acked-gone", "acked-local", "queued"])
        #expect(outbox.awaitingConfirmation(inSession: "other").map(\.id) == ["elsewhere"])
    }

    @Test func aOneShotCommandWithdrawsWhatTheGatewayMayLackButNotWhatItAcked() {
        var outbox = Self.outbox()
        #expect(outbox.withdraw(id: "acked-gone") == nil, "the gateway has it: only its confirmation is left")
        #expect(outbox.contains(id: "acked-gone"))
        #expect(outbox.withdraw(id: "queued") == .removed(Self.message("queued")))
        #expect(!outbox.contains(id: "queued"))
        #expect(outbox.withdraw(id: "queued") == nil, "already gone")
    }

    @Test func onlyAnOutcomeThatDidNotHandTheMessageOverHoldsBackTheNextOnes() {
        #expect(SendAttemptOutcome.neverLeft.holdsBackLaterMessages)
        #expect(SendAttemptOutcome.ambiguous.holdsBackLaterMessages)
        #expect(!Self.ack("a").holdsBackLaterMessages)
        #expect(!SendAttemptOutcome.handledAsCommand.holdsBackLaterMessages)
        #expect(!SendAttemptOutcome.rejected(reason: "no").holdsBackLaterMessages)
    }
}
