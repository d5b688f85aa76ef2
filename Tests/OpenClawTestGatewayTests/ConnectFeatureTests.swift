import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// The handshake's own rules, asked of `ConnectFeature` directly.
@Suite("Test gateway: connect feature")
struct ConnectFeatureTests {
    @Test func theRoleIsOperatorUnlessANodeAsks() {
        #expect(ConnectFeature.requestedRole([:]) == .operator)
        #expect(ConnectFeature.requestedRole(["role": "operator"]) == .operator)
        #expect(ConnectFeature.requestedRole(["role": "node"]) == .node)
        #expect(ConnectFeature.requestedRole(["role": "admin"]) == nil)
        #expect(ConnectFeature.requestedRole(["role": "Node"]) == nil)
    }

    @Test func presenceListsTheDeviceThenTheInstanceThenTheSocketButNeverACLI() {
        let app: JSONValue = ["mode": "ui", "instanceId": "inst-1"]
        #expect(ConnectFeature.presenceKey(client: app, deviceId: "dev-1", connId: "c1") == "dev-1")
        #expect(ConnectFeature.presenceKey(client: app, deviceId: nil, connId: "c1") == "inst-1")
        #expect(ConnectFeature.presenceKey(client: ["mode": "ui"], deviceId: nil, connId: "c1") == "c1")
        #expect(ConnectFeature.presenceKey(client: ["mode": "cli"], deviceId: "dev-1", connId: "c1") == nil)
    }

    @Test func theStateVersionFollowsPresence() {
        let feature = ConnectFeature(configuration: TestGatewayConfiguration())
        #expect(feature.stateVersion == StateVersion(presence: 1, health: 1))
        feature.presence["b"] = ["host": "b"]
        feature.presence["a"] = ["host": "a"]
        feature.presenceVersion += 1
        #expect(feature.stateVersion.presence == 2)
        #expect(feature.presenceEntries == [["host": "a"], ["host": "b"]])
    }
}
