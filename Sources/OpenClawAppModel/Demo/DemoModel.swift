import Observation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// Demo mode: a gateway with a scripted agent (``AppDependencies/demoGateway``; the app's runs in this
/// process and in memory) and a chat connected to it, so the app can be tried without a gateway. A
/// one-off token, a throwaway device identity and an in-memory store: trying it leaves nothing behind,
/// and nothing of it reaches the real conversations.
@MainActor
@Observable
public final class DemoModel {
    public enum Phase: Sendable, Equatable {
        case starting
        case running
        case failed(String)
        case stopped
    }

    /// Messages that show what the scripted agent does.
    public static let suggestions = ["hello", "use a tool", "run a command", "slow", "fail"]

    public private(set) var phase: Phase = .starting
    public private(set) var context: ChatContext?
    /// The demo gateway's address, while it runs.
    public private(set) var gatewayURL: String?

    @ObservationIgnored private let dependencies: AppDependencies
    @ObservationIgnored private let traceFrame: (@Sendable (FrameTrace) -> Void)?
    @ObservationIgnored private var gateway: DemoGateway?
    @ObservationIgnored private var isStopped = false

    public init(dependencies: AppDependencies, traceFrame: (@Sendable (FrameTrace) -> Void)? = nil) {
        self.dependencies = dependencies
        self.traceFrame = traceFrame
    }

    public func start() async {
        guard gateway == nil, !isStopped else { return }
        phase = .starting
        guard let makeGateway = dependencies.demoGateway else {
            phase = .failed("This build of the app has no demo.")
            return
        }
        let started: DemoGateway
        do {
            started = try await makeGateway()
        } catch {
            phase = .failed("The demo gateway could not start: \(error).")
            return
        }
        gateway = started
        gatewayURL = started.url.description
        guard !isStopped else {
            await stopGateway()
            return
        }
        // The demo's scripted agent asks for approval on "run a command": the demo always approves here.
        var demoDependencies = dependencies
        demoDependencies.approvesCommands = true
        demoDependencies.answersQuestions = true
        let connection = demoDependencies.makeConnection(
            url: started.url,
            credential: .token(started.token),
            traceFrame: traceFrame,
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: Int(UnixTime.nowMs()))),
            tokenStore: InMemoryDeviceTokenStore(),
            through: started.transport
        )
        let context = ChatContext(connection: connection, store: InMemoryChatStore(), dependencies: demoDependencies)
        self.context = context
        await context.start()
        guard !isStopped else { return }
        if let error = context.chat.alerts.last, !context.chat.connectionState.isConnected {
            phase = .failed(error.message)
        } else {
            phase = .running
        }
    }

    /// Closes the chat and stops the gateway.
    public func stop() async {
        isStopped = true
        await context?.stop()
        context = nil
        await stopGateway()
        phase = .stopped
    }

    private func stopGateway() async {
        let running = gateway
        gateway = nil
        gatewayURL = nil
        await running?.stop()
    }
}
