import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
@_exported import OpenClawTestSupport

@testable import OpenClawChat

/// A running test gateway with one connection and a started view model on it.
@MainActor
struct ChatFixture {
    let gateway: TestGateway
    let connection: GatewayConnection
    let viewModel: ChatSession
}

/// Builds view models wired to a real test gateway over 127.0.0.1, with in-memory identity and token
/// stores, so every test exercises the real socket, handshake and wire shapes.
@MainActor
enum ChatHarness {
    static let client = ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", deviceFamily: "test")

    /// A new (not yet connected) connection to `gateway`.
    static func connection(
        to gateway: TestGateway, scopes: [String] = OperatorScope.chatDefault, tlsTrust: TLSTrust? = nil
    ) throws -> GatewayConnection {
        let configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: gateway.url),
            credential: .token("test-token"),
            client: client,
            scopes: scopes,
            challengeTimeout: .seconds(6),
            connectTimeout: .seconds(10),
            defaultRequestTimeout: .seconds(5)
        )
        return GatewayConnection(
            configuration: configuration,
            transport: LiveWebSocketTransport(tlsTrust: tlsTrust),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore()
        )
    }

    /// A view model on a new connection to `gateway`, started and waited for until it is connected and
    /// has loaded its session.
    static func startedViewModel(
        on gateway: TestGateway, sessionKey: String = "main", scopes: [String] = OperatorScope.chatDefault,
        tlsTrust: TLSTrust? = nil
    ) async throws -> (
        GatewayConnection, ChatSession
    ) {
        let connection = try connection(to: gateway, scopes: scopes, tlsTrust: tlsTrust)
        let viewModel = ChatSession(client: ChatClient(connection: connection), sessionKey: sessionKey)
        await viewModel.start()
        let ready = await eventually {
            viewModel.connectionState.isConnected && !viewModel.transcript.historyRequestOutstanding
                && viewModel.transcript.pendingHistoryRefresh == nil
        }
        guard ready else { throw HarnessError.notConnected(viewModel.alerts.map(\.message)) }
        return (connection, viewModel)
    }

    /// Starts a gateway and a view model on it, runs `body`, then stops both whatever happens. Every
    /// frame is validated against the protocol schema (`FrameConformanceRecorder`), except the requests
    /// listed in `invalidOnPurpose`, which the test sends wrong on purpose.
    static func withViewModel<T>(
        _ configuration: TestGatewayConfiguration,
        sessionKey: String = "main",
        scopes: [String] = OperatorScope.chatDefault,
        invalidOnPurpose: [InvalidOnPurpose] = [],
        tlsTrust: (TestGateway) throws -> TLSTrust? = { _ in nil },
        _ body: (ChatFixture) async throws -> T
    ) async throws -> T {
        let recorder = try FrameConformanceRecorder(
            protocolVersion: configuration.protocolNumber, invalidOnPurpose: invalidOnPurpose)
        var configuration = configuration
        configuration.frameTap = recorder.tap
        let gateway = try await TestGateway.start(configuration)
        do {
            let (connection, viewModel) = try await startedViewModel(
                on: gateway, sessionKey: sessionKey, scopes: scopes, tlsTrust: try tlsTrust(gateway))
            let fixture = ChatFixture(gateway: gateway, connection: connection, viewModel: viewModel)
            do {
                let result = try await body(fixture)
                await viewModel.stop()
                await gateway.stop()
                try recorder.verify()
                return result
            } catch {
                await viewModel.stop()
                throw error
            }
        } catch {
            await gateway.stop()
            throw error
        }
    }

    enum HarnessError: Error, CustomStringConvertible {
        case notConnected([String])

        var description: String {
            switch self {
            case .notConnected(let alerts): "the view model did not connect: \(alerts)"
            }
        }
    }
}
