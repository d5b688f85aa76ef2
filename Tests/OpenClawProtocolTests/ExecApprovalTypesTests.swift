import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// The exec approval events and the resolve request: strict in what we send, liberal in what we read.
@Suite("Exec approval wire types")
struct ExecApprovalTypesTests {
    @Test(arguments: [SharedSchemas.v3FileName, SharedSchemas.v3CommittedFileName])
    func resolveParamsAreExactlyIdAndDecision(schemaFile: String) throws {
        let validator = JSONSchemaValidator(document: try SharedSchemas.load(schemaFile))
        for decision in ExecApprovalDecision.allCases {
            let params = ExecApprovalResolveParams(id: "1c61933c-0f61", decision: decision)
            #expect(validator.validate(params.json, definition: "ExecApprovalResolveParams").isEmpty)
            #expect(params.json == ["id": "1c61933c-0f61", "decision": .string(decision.rawValue)])
        }
        #expect(ExecApprovalResolveParams.method == "exec.approval.resolve")
        #expect(ExecApprovalDecision.allCases.map(\.rawValue) == ["allow-once", "allow-always", "deny"])
    }

    @Test func aGatewayHostRequestAsUpstreamSendsIt() throws {
        // The shape of a live 2026.6 gateway's event (systemRunPlan null for the gateway host).
        let payload = try JSONParser().parse(
            #"""
            {"id":"1c61933c-0f61-4f22-bf58-70aa64a300cc",
             "request":{"command":"rm -rf /tmp/build","commandArgv":["rm","-rf","/tmp/build"],"systemRunPlan":null,
               "systemRunBinding":null,"cwd":"/home/user","nodeId":null,"host":"gateway","security":"allowlist",
               "ask":"on-miss","allowedDecisions":["allow-once","deny"],"agentId":null,"resolvedPath":"/usr/bin/rm",
               "sessionKey":"agent:main:main","turnSourceChannel":null,"turnSourceThreadId":7},
             "createdAtMs":1783380154944,"expiresAtMs":1783381954944}
            """#)
        let request = try #require(ExecApprovalRequest(json: payload))
        #expect(request.id == "1c61933c-0f61-4f22-bf58-70aa64a300cc")
        #expect(request.command == "rm -rf /tmp/build" && request.argv == ["rm", "-rf", "/tmp/build"])
        #expect(request.cwd == "/home/user" && request.host == "gateway" && request.nodeId == nil)
        #expect(request.agentId == nil && request.sessionKey == "agent:main:main")
        #expect(request.allowedDecisions == [.allowOnce, .deny])
        #expect(request.lifetimeMs == 1_800_000)
    }

    @Test func aNodeRequestTakesItsCommandAndContextFromThePlan() throws {
        let payload: JSONValue = [
            "id": "n1",
            "request": [
                "systemRunPlan": [
                    "argv": ["git", "push"], "cwd": "/repo", "commandText": "git push", "agentId": "main",
                    "sessionKey": "agent:main:main",
                ],
                "host": "node", "nodeId": "mac-mini", "envKeys": ["GIT_SSH_COMMAND"],
                "allowedDecisions": ["allow-once", "sometime-later"],
            ],
            "createdAtMs": "1783380154944", "expiresAtMs": 1_783_381_954,
        ]
        let request = try #require(ExecApprovalRequest(json: payload))
        #expect(request.command == "git push" && request.argv == ["git", "push"])
        #expect(request.cwd == "/repo" && request.agentId == "main" && request.sessionKey == "agent:main:main")
        #expect(request.nodeId == "mac-mini" && request.envKeys == ["GIT_SSH_COMMAND"])
        // Unknown decisions are dropped; the known ones stay.
        #expect(request.allowedDecisions == [.allowOnce])
        // Numbers as strings and epoch seconds are read as the same instants.
        #expect(request.createdAtMs == 1_783_380_154_944 && request.expiresAtMs == 1_783_381_954_000)
    }

    @Test func sparseAndBrokenPayloadsAreReadOrRefusedWithoutACrash() throws {
        #expect(ExecApprovalRequest(json: ["request": ["command": "ls"]]) == nil)
        #expect(ExecApprovalRequest(json: ["id": ""]) == nil)
        #expect(ExecApprovalRequest(json: .string("nope")) == nil)
        let bare = try #require(ExecApprovalRequest(json: ["id": "x", "request": .null]))
        #expect(bare.command == "" && bare.argv.isEmpty && bare.lifetimeMs == nil)
        #expect(bare.allowedDecisions == ExecApprovalDecision.allCases)
        let backwards = try #require(ExecApprovalRequest(json: ["id": "x", "createdAtMs": 10, "expiresAtMs": 5]))
        #expect(backwards.lifetimeMs == nil)
        let many = JSONValue.array(Array(repeating: "a", count: 5_000))
        let long = try #require(ExecApprovalRequest(json: ["id": "x", "request": ["commandArgv": many]]))
        #expect(long.argv.count == ExecApprovalRequest.maxArgvCount)
    }

    @Test func resolvedEventsWithAndWithoutAKnownDecision() throws {
        let event = try #require(
            ExecApprovalResolved(json: ["id": "a", "decision": "deny", "resolvedBy": "Peter's Mac", "ts": 5]))
        #expect(event == ExecApprovalResolved(id: "a", decision: .deny, resolvedBy: "Peter's Mac", ts: 5))
        #expect(ExecApprovalResolved(json: ["id": "a", "decision": "later"])?.decision == nil)
        #expect(ExecApprovalResolved(json: ["id": "a", "decision": .null])?.decision == nil)
        #expect(ExecApprovalResolved(json: ["decision": "deny"]) == nil)
    }

    @Test func refusalReasonsAreTypedAndOpen() throws {
        let resolved = try #require(
            ErrorShape(json: [
                "code": "INVALID_REQUEST", "message": "approval already resolved",
                "details": ["reason": "APPROVAL_ALREADY_RESOLVED"],
            ]))
        #expect(resolved.approvalRefusalReason == .alreadyResolved)
        let notFound = ErrorShape(code: .invalidRequest, message: "gone", details: ["reason": "APPROVAL_NOT_FOUND"])
        #expect(notFound.approvalRefusalReason == .notFound)
        #expect(ApprovalRefusalReason.notFound.rawValue == ErrorCode.approvalNotFound.rawValue)
        let newer = ErrorShape(code: .invalidRequest, message: "x", details: ["reason": "APPROVAL_SOMETHING_NEW"])
        #expect(newer.approvalRefusalReason?.rawValue == "APPROVAL_SOMETHING_NEW")
        #expect(ErrorShape(code: .invalidRequest, message: "approval already resolved").approvalRefusalReason == nil)
    }
}
