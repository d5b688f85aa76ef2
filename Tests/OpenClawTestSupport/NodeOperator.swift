import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An operator on a test gateway that sends `node.invoke` to one node: the side an attacker holds in
/// the node's hostile tests, whether the node is the library (`NodeFixture`) or the `openclaw-chat node`
/// program. The gateway forwards what it is given.
public struct NodeOperator: Sendable {
    public let connection: GatewayConnection
    public let nodeId: String

    /// Connects an operator (token `test-token`, a throw-away device) to the gateway at `url`.
    public static func connect(to url: String, nodeId: String) async throws -> NodeOperator {
        let connection = GatewayConnection(
            configuration: GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: url), credential: .token("test-token"),
                client: ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux"),
                defaultRequestTimeout: .seconds(20), reconnect: nil),
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 1)),
            tokenStore: InMemoryDeviceTokenStore())
        try await connection.connect()
        return NodeOperator(connection: connection, nodeId: nodeId)
    }

    /// `node.invoke` as an operator calls it; the payload of the gateway's answer.
    public func invoke(
        _ command: String, _ params: JSONValue, timeoutMs: Int? = nil
    ) async throws(GatewayError)
        -> JSONValue?
    {
        let request = JSONValue.object(dropping: [
            ("nodeId", .string(nodeId)), ("command", .string(command)), ("params", params),
            ("timeoutMs", .int(timeoutMs)), ("idempotencyKey", .string(UUID().uuidString)),
        ])
        return try await connection.request("node.invoke", params: request)
    }

    /// Sends an invoke that must be refused: nil when the node refused it with a message containing
    /// `reason`, else what happened instead (for the test to record).
    public func refusalProblem(_ command: String, _ params: JSONValue, reason: String) async -> String? {
        do {
            let answer = try await invoke(command, params)
            return "not refused: \(String(describing: answer))"
        } catch {
            guard case .requestFailed(_, let shape) = error else { return "unexpected error \(error)" }
            return shape.message.contains(reason) ? nil : "refused for another reason: \(shape.message)"
        }
    }

    public func disconnect() async {
        await connection.disconnect()
    }
}
