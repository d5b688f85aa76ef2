import Testing

@testable import OpenClawProtocol

/// The connection's role is a type: spelled once, written as its wire string, and a role a newer
/// gateway names is kept as it came rather than read as an operator.
@Suite("Gateway roles")
struct GatewayRoleTests {
    @Test func rolesAreWrittenAndReadAsTheirWireStrings() throws {
        #expect(GatewayRole.operator.rawValue == "operator" && GatewayRole.node.rawValue == "node")
        let node: GatewayRole = "node"
        #expect(node == .node && "\(node)" == "node")
        let auth = try #require(HelloOk.AuthInfo(json: ["role": "observer", "scopes": []]))
        #expect(auth.role == GatewayRole(rawValue: "observer"))
        let unnamed = try #require(HelloOk.AuthInfo(json: ["scopes": []]))
        #expect(unnamed.role == GatewayRole.operator, "upstream's default")
    }
}
