import OpenClawGateway

/// A gateway for demo mode, started when the person asks for the demo: where it is, the one-off token it
/// accepts, and the transport that reaches it.
///
/// A value made by a factory in ``AppDependencies/demoGateway`` rather than built here, so the app's model
/// does not link a gateway: the app passes the test gateway's core in memory (`OpenClawAppDemo`), a build
/// without a demo passes nothing.
public struct DemoGateway: Sendable {
    public var url: GatewayURL
    public var token: String
    /// Reaches the gateway; an in-memory one has no socket.
    public var transport: any WebSocketTransport
    /// Stops the gateway when the demo ends.
    public var stop: @Sendable () async -> Void

    public init(
        url: GatewayURL, token: String, transport: any WebSocketTransport, stop: @escaping @Sendable () async -> Void
    ) {
        self.url = url
        self.token = token
        self.transport = transport
        self.stop = stop
    }
}

/// Starts a demo gateway; see ``AppDependencies/demoGateway``.
public typealias DemoGatewayFactory = @Sendable () async throws -> DemoGateway
