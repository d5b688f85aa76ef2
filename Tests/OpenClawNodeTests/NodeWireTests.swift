import OpenClawGateway
import OpenClawProtocol
import OpenClawTestSupport
import Testing

@testable import OpenClawNode

/// What the node sends is validated against the shared schemas (closed objects); what it receives is
/// read liberally.
@Suite("Node wire shapes")
struct NodeWireTests {
    static func validator() throws -> JSONSchemaValidator {
        JSONSchemaValidator(document: try SharedSchemas.load(SharedSchemas.v3FileName))
    }

    @Test func resultsAndEventsMatchTheSchemas() throws {
        let validator = try Self.validator()
        let ok = NodeInvokeResult(id: "i1", nodeId: "n1", outcome: .success(["stdout": "x"]))
        let failed = NodeInvokeResult(id: "i1", nodeId: "n1", outcome: .failure(.unsupportedCommand))
        let noNode = NodeInvokeResult(id: "i1", nodeId: "", outcome: .failure(NodeInvokeError(.failed, "")))
        for result in [ok, failed, noNode] {
            #expect(validator.validate(result.json, definition: "NodeInvokeResultParams") == [])
        }
        let snapshot = ExecApprovalsSnapshot(
            path: "/tmp/exec-approvals.json", exists: true, hash: "ab",
            file: ExecApprovalsFile(
                defaults: ExecPolicySettings(security: .allowlist, ask: .onMiss, askFallback: .deny),
                agents: [
                    "main": ExecPolicySettings(allowlist: [
                        ExecAllowlistEntry(pattern: "/usr/bin/git", argPattern: "status*")
                    ])
                ]))
        #expect(validator.validate(snapshot.json, definition: "ExecApprovalsSnapshot") == [])
        #expect(
            validator.validate(["file": snapshot.file.json, "baseHash": "ab"], definition: "ExecApprovalsSetParams")
                == [])
        let event = NodeEvent(event: "exec.denied", payload: ["reason": "allowlist miss"])
        #expect(validator.validate(event.json, definition: "NodeEventParams") == [])
    }

    @Test func nodeConnectParamsMatchBothVersions() throws {
        let identity = DeviceIdentity(createdAtMs: 0)
        let challenge = ConnectChallenge(nonce: "2b0c7a6e-5d1e-4c1a-9f7e-3c2d1b0a9f8e", ts: 1_737_264_000_000)
        let client = ClientInfo(id: .nodeHost, mode: .node, version: "0.1.0", platform: "linux")
        let params = ConnectParams(
            client: client, role: "node", scopes: [], caps: ["system"],
            device: try identity.proof(for: challenge, client: client, role: "node", scopes: [], auth: nil),
            commands: ["system.run", "system.which"], permissions: ["system.run": true], pathEnv: "/usr/bin:/bin")
        for file in SharedSchemas.allFileNames {
            let validator = JSONSchemaValidator(document: try SharedSchemas.load(file))
            #expect(validator.validate(params.json, definition: "ConnectParams") == [], "\(file)")
        }
    }

    @Test func invokeRequestsAcceptParamsJSONOrAnObject() {
        let fromString = NodeInvokeRequest(payload: [
            "id": "a", "nodeId": "n", "command": "system.which", "paramsJSON": "{\"bins\":[\"sh\"]}", "timeoutMs": 500,
        ])
        #expect(fromString?.params?["bins"]?.stringArrayValue == ["sh"])
        #expect(fromString?.timeoutMs == 500)
        let fromObject = NodeInvokeRequest(payload: ["id": "a", "command": "x", "params": ["k": 1], "paramsJSON": nil])
        #expect(fromObject?.params?["k"]?.intValue == 1)
        let broken = NodeInvokeRequest(payload: ["id": "a", "command": "x", "paramsJSON": "{nope"])
        #expect(broken?.paramsProblem != nil)
        #expect(NodeInvokeRequest(payload: ["command": "x"]) == nil)
        #expect(NodeInvokeRequest(payload: "garbage") == nil)
    }

    @Test func runParamsAreCheckedAtTheEdge() {
        #expect(throws: NodeInvokeError.self) { try SystemRunParams(json: ["command": []]) }
        #expect(throws: NodeInvokeError.self) { try SystemRunParams(json: ["command": "ls -la"]) }
        #expect(throws: NodeInvokeError.self) {
            try SystemRunParams(json: ["command": ["ls"], "approvalDecision": "maybe"])
        }
        let params = try? SystemRunParams(json: ["command": ["ls", "-la"], "approved": true, "timeoutMs": 1000.0])
        #expect(params?.approval == .allowOnce)
        #expect(params?.timeoutMs == 1000)
    }

    @Test func answeredInvokesForgetTheOldestFirst() {
        var answered = AnsweredInvokes(capacity: 2)
        for id in ["a", "b", "c"] {
            answered.insert(NodeInvokeResult(id: id, nodeId: "n", outcome: .success(nil)))
        }
        #expect(answered["a"] == nil)
        #expect(answered["c"] != nil)
    }
}
