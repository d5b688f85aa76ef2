import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawNode

/// Since 2026.7 there is no `node.pair.request`: the gateway creates the pending request when an
/// unpaired node connects. The node only connects, is told the request id, and is let in once it is
/// approved.
@Suite("Node: pairing requested by connecting")
struct NodePairingOnConnectTests {
    @Test func connectingCreatesThePendingRequestAndApprovalLetsTheNodeIn() async throws {
        try await withValidatedTestGateway(.init(pairing: .requireApproval)) { gateway in
            var configuration = GatewayConnectionConfiguration(
                url: try GatewayURL(parsing: gateway.url), credential: .token("test-token"),
                client: ClientInfo(id: .nodeHost, mode: .node, version: "test", platform: "linux"), role: "node",
                scopes: [], caps: DesktopNode.caps, defaultRequestTimeout: .seconds(10), reconnect: nil)
            configuration.nodeDeclaration = NodeDeclaration(commands: ["system.which"])
            let node = GatewayConnection(
                configuration: configuration,
                identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
                tokenStore: InMemoryDeviceTokenStore())
            var requestId: String?
            do {
                _ = try await node.connect()
                Issue.record("an unpaired node was let in")
            } catch {
                guard case .pairingRequired(let request)? = error as? GatewayError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                requestId = request.requestId
            }
            let pending = await gateway.pendingPairingRequests()
            #expect(pending.count == 1, "the connect itself created the request")
            #expect(requestId != nil && pending == [requestId ?? ""])
            await gateway.approvePairing(requestId: try #require(requestId))
            let session = try await node.connect()
            #expect(await gateway.connectedNodes() == [session.deviceId])
            #expect(await gateway.requestCount(method: "node.pair.request") == 0)
            await node.disconnect()
        }
    }
}
