import OpenClawGateway
import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The outbox's pure parts: how a send's failure is classified, expiry, and the transcript's
/// round trip through the store.
@Suite("Outbox and store: pure logic")
struct OutboxUnitTests {
    @Test func failuresBeforeTheRequestLeftAreRetriedAutomatically() {
        let errors: [GatewayError] = [
            .notConnected, .transport(.connectionRefused(host: "127.0.0.1", port: 9)),
            .gatewayUnavailable(retryAfterMs: 500, message: "starting"),
            .requestFailed(
                method: "chat.send", error: ErrorShape(code: "UNAVAILABLE", message: "busy", retryable: true)),
        ]
        for error in errors { #expect(SendAttemptOutcome(error: error) == .neverLeft, "\(error)") }
    }

    @Test func failuresAfterTheRequestLeftAreAmbiguous() {
        let errors: [GatewayError] = [
            .connectionLost(.connectionLost), .timeout(method: "chat.send", afterMs: 35_000),
            .invalidResponse(method: "chat.send", reason: "unexpected shape"),
        ]
        for error in errors {
            #expect(SendAttemptOutcome(error: error) == .ambiguous, "\(error)")
            #expect(SendAttemptOutcome(error: error).outboxState?.needsDelivery == true)
        }
    }

    @Test func refusalsOfTheMessageItselfFailIt() {
        let refused = GatewayError.requestFailed(
            method: "chat.send", error: ErrorShape(code: "INVALID_REQUEST", message: "message or attachment required"))
        guard case .rejected(let reason) = SendAttemptOutcome(error: refused) else {
            Issue.record("a refusal must fail the message")
            return
        }
        #expect(reason.contains("message or attachment required"))
        #expect(
            SendAttemptOutcome(error: .payloadTooLarge(bytes: 30_000_000, limit: 25_000_000)).outboxState?
                .needsDelivery == false)
        #expect(
            SendAttemptOutcome(ack: ChatSendAck(runId: "r", status: .error, summary: "no"))
                == .rejected(reason: "no"))
        #expect(SendAttemptOutcome(ack: ChatSendAck(runId: "r", status: .inFlight)).outboxState == .accepted)
    }

    /// A stop command is answered `{ok, aborted, runIds}`, without a run id: the message is handled,
    /// leaves the outbox, and is never sent again (it used to be "ambiguous" and resent every 5 s).
    @Test func aStopCommandsAnswerEndsTheMessage() throws {
        let answer: JSONValue = ["ok": true, "aborted": true, "runIds": ["r1"]]
        let result = try #require(ChatSendResult(json: answer))
        #expect(result == .stopCommand(ChatAbortResult(aborted: true, runIds: ["r1"])))
        #expect(SendAttemptOutcome(result: result) == .handledAsCommand)
        #expect(SendAttemptOutcome(result: result).outboxState == nil)
        let ack = try #require(ChatSendResult(json: ["runId": "k", "status": "started"]))
        #expect(SendAttemptOutcome(result: ack) == .accepted(ChatSendAck(runId: "k", status: .started)))
        #expect(ChatSendResult(json: ["unexpected": true]) == nil)
    }

    /// A resend is safe only while the gateway remembers the key: counted from the first unanswered
    /// attempt, not from creation or the latest attempt.
    @Test func theDuplicateWindowCountsFromTheFirstUnansweredAttempt() {
        let policy = OutboxPolicy(duplicateWindow: .seconds(270))
        var message = OutboxMessage(
            id: "a", gateway: "g", sessionKey: "main", text: "hi", createdAtMs: 0, state: .ambiguous,
            lastAttemptAtMs: 1_000_000)
        #expect(!policy.isPastDuplicateWindow(message, nowMs: 10_000_000), "never unanswered: nothing to fear")
        message.uncertainSinceMs = 100_000
        #expect(!policy.isPastDuplicateWindow(message, nowMs: 100_000 + 269_999))
        #expect(policy.isPastDuplicateWindow(message, nowMs: 100_000 + 270_000))
    }

    @Test func expiryCountsFromCreationAndSparesFailedMessages() {
        let policy = OutboxPolicy(expiry: .seconds(48 * 3600))
        let message = OutboxMessage(id: "a", gateway: "g", sessionKey: "main", text: "hi", createdAtMs: 0)
        #expect(!policy.hasExpired(message, nowMs: 48 * 3_600_000))
        #expect(policy.hasExpired(message, nowMs: 48 * 3_600_000 + 1))
        var failed = message
        failed.state = .failed(reason: "refused")
        #expect(!policy.hasExpired(failed, nowMs: .max / 2))
        // Acked: the gateway has it, so it is never turned into "not delivered" (a retry would run it twice).
        var accepted = message
        accepted.state = .accepted
        #expect(!policy.hasExpired(accepted, nowMs: .max / 2))
        accepted.state = .unconfirmed
        #expect(!policy.hasExpired(accepted, nowMs: .max / 2))
        #expect(policy.expiryReason.contains("48 h"))
    }

    /// What a transcript stores is what a new transcript restores: same ids, roles, text and tool
    /// durations; and the first real page keeps those ids.
    @Test func aTranscriptSurvivesTheStoreWithItsIds() {
        var first = Transcript(sessionKey: "main")
        first.apply(.send(LocalSend(id: "k1", text: "run a tool", timestampMs: 1_000)))
        first.apply(.historyLoaded(Self.page))
        let stored = first.storableMessages
        #expect(stored.count == 3)
        #expect(stored.first?.id == "k1")

        var second = Transcript(sessionKey: "main")
        second.apply(.restored(stored))
        #expect(second.entries.map(\.id) == first.entries.map(\.id))
        #expect(second.entries.map(\.text) == first.entries.map(\.text))
        #expect(second.activeRunIds.isEmpty)
        second.apply(.historyLoaded(Self.page))
        #expect(second.entries.map(\.id) == first.entries.map(\.id))

        var late = Transcript(sessionKey: "main")
        late.apply(.historyLoaded(Self.page))
        #expect(late.apply(.restored(stored)) == .ignored(.stale))
    }

    private static let page = ChatHistoryPage(
        sessionKey: "main",
        messages: [
            ChatMessage(role: .user, content: [.text("run a tool")], timestampMs: 1_000, entry: .init(id: "e1")),
            ChatMessage(
                role: .assistant,
                content: [.toolCall(id: "t1", name: "exec", arguments: ["command": "ls"])],
                timestampMs: 2_000,
                entry: .init(id: "e2")
            ),
            ChatMessage(role: .assistant, content: [.text("done")], timestampMs: 3_000, entry: .init(id: "e3")),
        ]
    )
}
