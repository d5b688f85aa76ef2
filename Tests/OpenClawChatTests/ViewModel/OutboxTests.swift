import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Synchronization
import Testing

@testable import OpenClawChat

/// The outbox over a real socket: what is typed offline is delivered once on reconnect, a send whose
/// answer was lost is resent with the same idempotency key (one message, one run on the gateway), and
/// messages are confirmed from history before they leave the outbox.
@MainActor
@Suite("View model: outbox delivery")
struct OutboxTests {
    /// The gateway stores the message and starts the run, then drops the socket before the ack: the
    /// outcome is ambiguous. The message waits, shown as queued; after the reconnect history confirms it
    /// and nothing is sent twice.
    @Test(arguments: GatewayFlavor.all)
    func aSendWhoseAnswerWasLostIsConfirmedOnceAfterReconnect(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .beforeAck))
            let id = await viewModel.send("did this land?")
            #expect(viewModel.transcript.entry(id: id)?.status == .queued)
            #expect(viewModel.outbox.map(\.state) == [.ambiguous])
            #expect(viewModel.alerts.isEmpty)
            #expect(await eventually { !viewModel.connectionState.isConnected })

            try await fixture.connection.connect()
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(settled.history.map(\.role) == [.user, .assistant])
            #expect(viewModel.messages.first?.id == id)
            #expect(await eventually { viewModel.outbox.isEmpty })
            #expect(await fixture.gateway.runCount() == 1)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["did this land?"])
        }
    }

    /// The resend goes out before any history fetch could confirm the message: the gateway deduplicates
    /// by the idempotency key, so there is still one message and one run.
    @Test(arguments: GatewayFlavor.versions)
    func resendingAnAmbiguousSendBeforeHistoryStartsNoSecondRun(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .beforeAck))
            let id = await viewModel.send("once only")
            #expect(await eventually { !viewModel.connectionState.isConnected })

            // Reconnect underneath a stopped view model, then deliver before anything reloads history.
            await viewModel.stop()
            try await fixture.connection.connect()
            viewModel.connectionState = await fixture.connection.state
            await viewModel.flushOutbox()
            // Accepted (the run still going), or already confirmed (the ack said it had finished).
            #expect(viewModel.transcript.entry(id: id)?.status == .sent)
            #expect(viewModel.outbox.allSatisfy { $0.state == .accepted })

            await viewModel.start()
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(viewModel.messages.first?.id == id)
            #expect(await eventually { viewModel.outbox.isEmpty })
            #expect(await fixture.gateway.runCount() == 1)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["once only"])
        }
    }

    /// The socket drops right after the ack: the gateway has the message, its events are lost; after
    /// the reconnect history brings the reply and confirms the message.
    @Test(arguments: GatewayFlavor.versions)
    func aDropAfterTheAckIsConfirmedByHistory(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .afterAck))
            let id = await viewModel.send("ack then drop")
            #expect(await eventually { !viewModel.connectionState.isConnected })
            #expect(viewModel.transcript.entry(id: id)?.status == .sent)
            #expect(viewModel.outbox.map(\.state) == [.accepted])

            try await fixture.connection.connect()
            let settled = await fixture.settled(storedMessages: 2)
            #expect(settled.transcript == settled.history)
            #expect(viewModel.messages.first?.id == id)
            #expect(await eventually { viewModel.outbox.isEmpty })
            #expect(await fixture.gateway.runCount() == 1)
        }
    }

    /// Typed while offline: queued at once, delivered in order, each exactly once, on reconnect.
    @Test(arguments: GatewayFlavor.versions)
    func messagesTypedOfflineAreDeliveredInOrderOnceOnReconnect(flavor: GatewayFlavor) async throws {
        try await ChatHarness.withViewModel(flavor.configuration()) { fixture in
            let viewModel = fixture.viewModel
            await fixture.connection.disconnect()
            #expect(await eventually { !viewModel.connectionState.isConnected })

            var ids: [String] = []
            for text in ["first", "second", "third"] { ids.append(await viewModel.send(text)) }
            #expect(ids.map { viewModel.transcript.entry(id: $0)?.status } == [.queued, .queued, .queued])
            #expect(viewModel.outbox.map(\.id) == ids)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main").isEmpty)

            try await fixture.connection.connect()
            let settled = await fixture.settled(storedMessages: 6)
            #expect(settled.transcript == settled.history)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["first", "second", "third"])
            #expect(await fixture.gateway.runCount() == 3)
            #expect(await eventually { viewModel.outbox.isEmpty })
            #expect(viewModel.messages.filter { $0.role == .user }.map(\.id) == ids)
        }
    }

    /// A message the gateway refuses is failed with its reason, kept for the user, never resent alone;
    /// a later message is still delivered; discarding it empties the outbox.
    @Test func aRejectedMessageIsKeptFailedUntilDiscarded() async throws {
        try await ChatHarness.withViewModel(GatewayFlavor.v4WithMessage.configuration()) { fixture in
            let viewModel = fixture.viewModel
            let bad = await viewModel.send("nul\u{0}byte")
            guard case .failed(let reason) = viewModel.transcript.entry(id: bad)?.status else {
                Issue.record("expected a failed row, got \(String(describing: viewModel.transcript.entry(id: bad)))")
                return
            }
            #expect(reason.contains("null bytes"))
            #expect(viewModel.outbox.first?.state.isFailed == true)
            #expect(viewModel.alerts.count == 1)

            _ = await viewModel.send("a good one")
            _ = await fixture.settled(storedMessages: 2)
            #expect(await fixture.gateway.sentUserMessages(sessionKey: "main") == ["a good one"])
            #expect(viewModel.outbox.map(\.id) == [bad])
            #expect(viewModel.messages.last?.id == bad)

            await viewModel.discard(messageID: bad)
            #expect(viewModel.outbox.isEmpty)
            #expect(viewModel.transcript.entry(id: bad) == nil)
        }
    }

    /// Past the expiry a waiting message is marked failed, kept, and not sent on reconnect; a retry
    /// restarts its clock and delivers it.
    @Test func anExpiredMessageIsFailedAndKeptNotSent() async throws {
        let clock = TestClock(startMs: 1_000_000)
        let gateway = try await TestGateway.start(GatewayFlavor.v4WithMessage.configuration())
        defer { Task { await gateway.stop() } }
        let connection = try ChatHarness.connection(to: gateway)
        let viewModel = ChatSession(
            client: ChatClient(connection: connection),
            outboxPolicy: OutboxPolicy(expiry: .seconds(3600)),
            now: { clock.nowMs }
        )
        await viewModel.start()
        #expect(await eventually { viewModel.connectionState.isConnected })
        await connection.disconnect()
        #expect(await eventually { !viewModel.connectionState.isConnected })
        let id = await viewModel.send("too late")

        clock.advance(byMs: 2 * 3_600_000)
        try await connection.connect()
        #expect(await eventually { viewModel.transcript.entry(id: id)?.status.isFailed == true })
        #expect(viewModel.outbox.first?.state == .failed(reason: OutboxPolicy(expiry: .seconds(3600)).expiryReason))
        #expect(await gateway.sentUserMessages(sessionKey: "main").isEmpty)

        await viewModel.retry(messageID: id)
        #expect(await eventually { viewModel.outbox.isEmpty })
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["too late"])
        await viewModel.stop()
    }

    /// Beyond the outbox's capacity a new message fails at once with the reason; the others are kept.
    @Test func theOutboxIsBounded() async throws {
        let gateway = try await TestGateway.start(GatewayFlavor.v4WithMessage.configuration())
        defer { Task { await gateway.stop() } }
        let connection = try ChatHarness.connection(to: gateway)
        let viewModel = ChatSession(
            client: ChatClient(connection: connection),
            outboxPolicy: OutboxPolicy(maxPending: 2)
        )
        await viewModel.start()
        #expect(await eventually { viewModel.connectionState.isConnected })
        await connection.disconnect()
        #expect(await eventually { !viewModel.connectionState.isConnected })

        let ids = [await viewModel.send("one"), await viewModel.send("two"), await viewModel.send("three")]
        #expect(viewModel.transcript.entry(id: ids[0])?.status == .queued)
        #expect(viewModel.transcript.entry(id: ids[1])?.status == .queued)
        #expect(viewModel.transcript.entry(id: ids[2])?.status.isFailed == true)
        #expect(viewModel.outbox.count == 3)

        try await connection.connect()
        #expect(await eventually(timeout: .seconds(10)) { viewModel.outbox.map(\.id) == [ids[2]] })
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["one", "two"])
        await viewModel.stop()
    }

    /// A new process on the same store shows the stored conversation (same ids) and the queued message
    /// before the gateway answers, then delivers the message once.
    @Test func aRestartResumesFromTheStore() async throws {
        let store = InMemoryChatStore()
        let gateway = try await TestGateway.start(GatewayFlavor.v4WithMessage.configuration())
        defer { Task { await gateway.stop() } }

        var firstIds: [String] = []
        var queuedId = ""
        do {
            let connection = try ChatHarness.connection(to: gateway)
            let viewModel = ChatSession(client: ChatClient(connection: connection), store: store, gatewayID: "home")
            await viewModel.start()
            _ = await viewModel.send("remember me")
            #expect(await eventually { !viewModel.isRunning && viewModel.messages.count == 2 })
            #expect(await eventually { viewModel.messages.allSatisfy { $0.source == .history } })
            firstIds = viewModel.messages.map(\.id)
            await connection.disconnect()
            #expect(await eventually { !viewModel.connectionState.isConnected })
            queuedId = await viewModel.send("typed before the crash")
            await viewModel.stop()
        }

        // The second launch cannot reach its gateway at first: the stored rows show anyway.
        let unreachable = GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: "ws://127.0.0.1:9"),
                credential: .token("test-token"),
                client: ChatHarness.client,
                connectTimeout: .seconds(2)
            ),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore()
        )
        let offline = ChatSession(client: ChatClient(connection: unreachable), store: store, gatewayID: "home")
        await offline.start()
        #expect(offline.messages.map(\.id) == firstIds + [queuedId])
        #expect(offline.transcript.entry(id: queuedId)?.status == .queued)
        #expect(!offline.isRunning)
        await offline.stop()

        // The third launch reaches it: the queued message is delivered once and confirmed.
        let connection = try ChatHarness.connection(to: gateway)
        let online = ChatSession(client: ChatClient(connection: connection), store: store, gatewayID: "home")
        await online.start()
        #expect(await eventually { online.outbox.isEmpty && !online.isRunning && online.messages.count == 4 })
        #expect(Array(online.messages.map(\.id).prefix(3)) == firstIds + [queuedId])
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["remember me", "typed before the crash"])
        #expect(await store.outbox(gateway: "home").isEmpty)
        // The page is recorded after the rows show it: wait for the write rather than race it.
        #expect(
            await eventually { await store.latestMessages(gateway: "home", sessionKey: "main", limit: 10).count == 4 })
        await online.stop()
    }
}

/// A settable clock for expiry tests.
final class TestClock: Sendable {
    private let value: Mutex<Int>

    init(startMs: Int) { value = Mutex(startMs) }

    var nowMs: Int { value.withLock { $0 } }

    func advance(byMs delta: Int) { value.withLock { $0 += delta } }
}

/// Regression: a queued message delivered at launch, with history reloaded while its reply streams,
/// stays one row.
@MainActor
@Suite("View model: outbox at launch")
struct OutboxLaunchTests {
    @Test(arguments: GatewayFlavor.versions)
    func aMessageQueuedByAnEarlierLaunchIsOneRowAfterDelivery(flavor: GatewayFlavor) async throws {
        let store = InMemoryChatStore()
        let gateway = try await TestGateway.start(flavor.configuration())
        defer { Task { await gateway.stop() } }
        let connection = try ChatHarness.connection(to: gateway)
        await store.enqueue(
            OutboxMessage(
                id: "queued-1", gateway: "home", sessionKey: "main", text: "stream 30",
                createdAtMs: Int(UnixTime.nowMs())
            )
        )
        let viewModel = ChatSession(client: ChatClient(connection: connection), store: store, gatewayID: "home")
        await viewModel.start()
        #expect(viewModel.outbox.allSatisfy { $0.state == .accepted })
        await viewModel.refreshHistory()
        #expect(viewModel.messages.filter { $0.role == .user }.map(\.id) == ["queued-1"])
        // The run, its end and the history fetch that confirms it: room for a loaded machine.
        #expect(await eventually(timeout: .seconds(20)) { !viewModel.isRunning && viewModel.outbox.isEmpty })
        #expect(viewModel.messages.filter { $0.role == .user }.map(\.id) == ["queued-1"])
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["stream 30"])
        await viewModel.stop()
    }
}
