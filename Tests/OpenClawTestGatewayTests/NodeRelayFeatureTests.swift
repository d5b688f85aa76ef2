import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// Upstream's rules for `node.invoke.progress` chunks, asked of `NodeRelayFeature` directly.
@Suite("Test gateway: node relay feature")
struct NodeRelayFeatureTests {
    /// Node "node-a" on connection 7 runs invoke "inv-1" for the operator on connection 1.
    static func relay() -> NodeRelayFeature {
        let relay = NodeRelayFeature()
        relay.registry.nodes[7] = ConnectedNode(connectionId: 7, nodeId: "node-a", connectParams: [:], connectedAtMs: 0)
        relay.registry.nodes[8] = ConnectedNode(connectionId: 8, nodeId: "node-b", connectParams: [:], connectedAtMs: 0)
        relay.registry.pending["inv-1"] = PendingNodeInvoke(
            invokeId: "inv-1", operatorConnection: 1, operatorRequestId: "r1", nodeConnection: 7, nodeId: "node-a",
            command: "system.run")
        return relay
    }

    @Test func theRunningNodesChunkIsAccepted() {
        #expect(Self.relay().progressVerdict(invokeId: "inv-1", nodeId: "node-a", chunk: "out", from: 7) == .accepted)
    }

    @Test func aNodeSpeakingForAnotherIsRefused() {
        let verdict = Self.relay().progressVerdict(invokeId: "inv-1", nodeId: "node-a", chunk: "out", from: 8)
        #expect(verdict == .refused("nodeId mismatch"))
    }

    @Test func aChunkOver16KiBIsRefusedAndOneAtTheLimitIsNot() {
        let relay = Self.relay()
        let limit = String(repeating: "x", count: 16 * 1024)
        #expect(relay.progressVerdict(invokeId: "inv-1", nodeId: "node-a", chunk: limit, from: 7) == .accepted)
        #expect(
            relay.progressVerdict(invokeId: "inv-1", nodeId: "node-a", chunk: limit + "x", from: 7)
                == .refused("progress chunk too large"))
    }

    @Test func aChunkForAnInvokeNotRunningThereIsIgnored() {
        let relay = Self.relay()
        #expect(relay.progressVerdict(invokeId: "inv-9", nodeId: "node-a", chunk: "out", from: 7) == .ignored)
        // Node B speaking for itself about A's invoke: not refused, not stored.
        #expect(relay.progressVerdict(invokeId: "inv-1", nodeId: "node-b", chunk: "out", from: 8) == .ignored)
    }
}
