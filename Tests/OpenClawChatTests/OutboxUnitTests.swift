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
            #expect(SendAttemptOutcome(error: error).outboxState.needsDelivery)
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
            !SendAttemptOutcome(error: .payloadTooLarge(bytes: 30_000_000, limit: 25_000_000)).outboxState.needsDelivery
        )
        #expect(
            SendAttemptOutcome(ack: ChatSendAck(runId: "r", status: .error, summary: "no"))
                == .rejected(reason: "no"))
        #expect(SendAttemptOutcome(ack: ChatSendAck(runId: "r", status: .inFlight)).outboxState == .accepted)
    }

    @Test func expiryCountsFromCreationAndSparesFailedMessages() {
        let policy = OutboxPolicy(expiry: .seconds(48 * 3600))
        let message = OutboxMessage(id: "a", gateway: "g", sessionKey: "main", text: "hi", createdAtMs: 0)
        #expect(!policy.hasExpired(message, nowMs: 48 * 3_600_000))
        #expect(policy.hasExpired(message, nowMs: 48 * 3_600_000 + 1))
        var failed = message
        failed.state = .failed(reason: "refused")
        #expect(!policy.hasExpired(failed, nowMs: .max / 2))
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
