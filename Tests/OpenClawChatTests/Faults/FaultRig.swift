import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

@testable import OpenClawChat

/// One fault scenario's world: a test gateway, a view model on a fast-reconnecting connection, and
/// the list of what the user sent, for the invariant every scenario ends with.
@MainActor
final class FaultRig {
    let gateway: TestGateway
    let connection: GatewayConnection
    let viewModel: ChatSession
    let seed: UInt64
    private(set) var sent: [String] = []
    /// Rows seen saying other than the outbox about their message (the first few).
    private(set) var deliveryMismatches: [String] = []
    private var deliveryWatch: Task<Void, Never>?

    /// Reconnects within tens of milliseconds, so a scenario with several drops stays short.
    static let fastReconnect = ReconnectPolicy(
        initialDelay: .milliseconds(20), maxDelay: .milliseconds(200), multiplier: 2, jitter: .equal)

    init(
        seed: UInt64,
        gateway configuration: TestGatewayConfiguration,
        challengeTimeout: Duration = .seconds(6),
        outboxPolicy: OutboxPolicy = OutboxPolicy(retryInterval: .milliseconds(200))
    ) async throws {
        self.seed = seed
        gateway = try await TestGateway.start(configuration)
        connection = GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: gateway.url),
                credential: .token("test-token"),
                client: ChatHarness.client,
                challengeTimeout: challengeTimeout,
                connectTimeout: .seconds(5),
                defaultRequestTimeout: .seconds(5),
                reconnect: Self.fastReconnect
            ),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore()
        )
        viewModel = ChatSession(
            client: ChatClient(connection: connection),
            store: InMemoryChatStore(),
            gatewayID: "fault-\(seed)",
            outboxPolicy: outboxPolicy
        )
    }

    func start() async {
        watchDelivery()
        await viewModel.start()
    }

    /// Checks, at every turn an observer is told of a change, that each local row of an outbox
    /// message shows the status the outbox state gives it: the row is derived, never a second record.
    private func watchDelivery() {
        let changes = viewModel.changes(of: [.transcript, .outbox, .connection])
        deliveryWatch = Task { [weak self] in
            for await _ in changes { self?.checkDelivery() }
        }
    }

    private func checkDelivery() {
        let connected = viewModel.connectionState.isConnected
        for entry in viewModel.transcript.entries where entry.source == .local && entry.role == .user {
            guard let message = viewModel.outbox.first(where: { $0.id == entry.id }) else { continue }
            let derived = message.state.rowStatus(isConnected: connected)
            if entry.status != derived, deliveryMismatches.count < 10 {
                deliveryMismatches.append("row \(entry.id) \(entry.status), outbox \(message.state) → \(derived)")
            }
        }
    }

    @discardableResult
    func send(_ text: String) async -> String {
        sent.append(text)
        return await viewModel.send(text)
    }

    /// Sends something that is not a message of the conversation (a stop command): not expected on the
    /// gateway.
    func sendCommand(_ text: String) async {
        await viewModel.send(text)
    }

    /// Forgets a message the user discarded: it is no longer expected on the gateway.
    func forget(_ text: String) {
        if let index = sent.lastIndex(of: text) { sent.remove(at: index) }
    }

    /// The invariant: every message the user sent exists exactly once on the gateway, in order; the
    /// outbox is empty; no run is left running; and the client's transcript equals the gateway's
    /// history. Nil when it holds, else what differs.
    func violation(timeout: Duration = .seconds(15)) async -> String? {
        let settled = await eventually(timeout: timeout) { [self] in
            guard viewModel.connectionState.isConnected, viewModel.outbox.isEmpty, !viewModel.isRunning else {
                return false
            }
            guard await gateway.sentUserMessages(sessionKey: "main") == sent else { return false }
            let history = await HistoryRow.history(of: gateway, sessionKey: "main")
            if HistoryRow.transcript(of: viewModel) != history {
                // A page fetched before the last run ended may be older than the gateway: fetch again.
                await viewModel.refreshHistory()
                return HistoryRow.transcript(of: viewModel) == history
            }
            return true
        }
        if settled, deliveryMismatches.isEmpty { return nil }
        let onGateway = await gateway.sentUserMessages(sessionKey: "main")
        let history = await HistoryRow.history(of: gateway, sessionKey: "main")
        return """
            seed \(seed): state \(viewModel.connectionState), outbox \(viewModel.outbox.map(\.state)), \
            running \(viewModel.isRunning)
              sent       \(sent)
              on gateway \(onGateway)
              transcript \(HistoryRow.transcript(of: viewModel))
              history    \(history)
              rows that disagreed with the outbox \(deliveryMismatches)
            """
    }

    func stop() async {
        deliveryWatch?.cancel()
        await viewModel.stop()
        await gateway.stop()
    }
}
