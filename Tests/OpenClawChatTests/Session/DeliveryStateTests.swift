import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// A local message's delivery state lives in the outbox; its row is derived from it. Evidence that
/// reaches the row first (its run's events) goes to the outbox, and the row follows the connection.
@MainActor
@Suite("Chat session: the row follows the outbox")
struct DeliveryStateTests {
    static func message(_ id: String, state: OutboxState) -> OutboxMessage {
        // Anything past queued has been attempted once.
        OutboxMessage(
            id: id, gateway: "gw", sessionKey: "main", text: "text \(id)", createdAtMs: 0, state: state,
            attempts: state == .queued ? 0 : 1)
    }

    static func delta(runId: String) throws -> ChatStreamEvent {
        let action = try Recording.action(
            #"{"type":"event","event":"chat","payload":{"runId":"\#(runId)","sessionKey":"agent:main:main","seq":1,"state":"delta","deltaText":"He"}}"#
        )
        guard case .chatEvent(let event) = action else { throw DeliveryStateTestError.notAChatEvent }
        return .chat(event)
    }

    /// The answer to a send was lost (the outbox would send it again), then its run's events arrive:
    /// they prove the gateway has it, so the outbox takes it as accepted, it is never sent again, and
    /// the row says sent because the outbox does.
    @Test func aRunsEventsTellTheOutboxItsMessageArrived() async throws {
        try await ChatHarness.withViewModel(.init()) { fixture in
            let session = fixture.viewModel
            session.outboxQueue = Outbox(messages: [Self.message("lost-answer", state: .ambiguous)])
            session.restoreOutboxRows()
            #expect(session.transcript.entry(id: "lost-answer")?.status == .queued)

            session.handle(try Self.delta(runId: "lost-answer"))
            #expect(session.outbox.first?.state == .accepted)
            #expect(session.outboxQueue.deliveryOrder.isEmpty, "proved delivered: not sent again")
            #expect(session.transcript.entry(id: "lost-answer")?.status == .sent)
        }
    }

    /// A message waiting for delivery reads as sending while a connection carries the flush, and as
    /// queued once there is none: the row follows the connection because it is derived, not stored.
    @Test func aWaitingMessageReadsAsQueuedOnceOffline() async throws {
        try await ChatHarness.withViewModel(.init()) { fixture in
            let session = fixture.viewModel
            // Held back behind nothing, but not flushed yet: only the row's reading is under test.
            session.outboxQueue = Outbox(messages: [Self.message("waiting", state: .queued)])
            session.restoreOutboxRows()
            #expect(session.transcript.entry(id: "waiting")?.status == .sending)
            await fixture.connection.disconnect()
            #expect(await eventually { !session.connectionState.isConnected })
            #expect(session.transcript.entry(id: "waiting")?.status == .queued)
            #expect(session.outbox.first?.state == .queued)
        }
    }
}

enum DeliveryStateTestError: Error {
    case notAChatEvent
}
