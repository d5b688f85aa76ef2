import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// A v3 and a v4 session driven frame by frame, every frame validated by the `FrameConformanceRecorder`:
/// the requests (against each method's params definition), every response (the frame, and the result
/// where a definition exists) and every event (the frame and its payload). v3 uses the shared generated
/// schema, v4 the repository's current one. The gateway is fixed to fit the schema, never the reverse.
/// The client side, through the real `ChatClient`, is `ClientFrameConformanceTests` (OpenClawChatTests).
@Suite("Test gateway frames conform to the protocol schemas")
struct SchemaConformanceTests {
    @Test(arguments: [3, 4])
    func everyFrameOfAScriptedSessionValidates(version: Int) async throws {
        let recorder = try FrameConformanceRecorder(
            protocolVersion: version, expectedUnchecked: ["params of does.not.exist"])
        let agent = ScriptedAgent(chunkSize: 12, chunkDelayMs: 1, slowChunkDelayMs: 150, toolDurationMs: 5)
        let configuration = TestGatewayConfiguration(protocolNumber: version, tickIntervalMs: 50, agent: agent)
        try await withValidatedTestGateway(configuration, recorder: recorder) { gateway in
            var helper = HandshakeHelper()
            helper.caps = ["tool-events"]
            helper.scopes = [OperatorScope.admin]
            let (client, _) = try await helper.open(gateway.url)
            _ = try await client.event("tick")
            for (index, message) in ["hello", "use a tool", "please shrink", "please fail", "stay silent"].enumerated()
            {
                _ = try await client.chatSend(message, key: "k\(index)")
                _ = try await client.terminalChat(runId: "k\(index)")
            }
            _ = try await client.chatSend("slow please", key: "slow")
            _ = try await client.event("chat") { $0["payload"]?["runId"] == "slow" }
            _ = try await client.request("chat.history", params: ["sessionKey": "main"])  // v4: `inFlightRun`
            _ = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "slow"])
            _ = try await client.terminalChat(runId: "slow")
            for (method, params) in Self.requests(version: version) {
                _ = try await client.request(method, params: params)
            }
            _ = try await client.request("does.not.exist")
            await gateway.shutdown(restartExpectedMs: 100)
            _ = try await client.closeCode()
        }
        let report = recorder.report()
        var expected = [
            "RequestFrame", "ResponseFrame", "EventFrame", "ConnectParams", "HelloOk", "ChatSendParams",
            "ChatHistoryParams", "ChatAbortParams", "ChatEvent", "AgentEvent", "TickEvent", "ShutdownEvent",
            "SessionsListParams", "SessionsPatchParams", "SessionsResetParams", "ModelsListParams",
            "ModelsListResult", "AgentIdentityParams", "AgentIdentityResult", "CommandsListParams",
            "CommandsListResult", "DevicePairListParams", "NodeListParams",
        ]
        if version >= 4 {
            expected += [
                "ConnectChallengeEvent", "ChatMessageGetParams", "ChatMessageGetResult",
                "ExecApprovalListParams", "ApprovalHistoryParams", "QuestionListParams", "ChatSendResult",
                "ChatAbortResult", "ChatHistoryPage", "SessionsListResult", "SessionsPatchResult",
                "SessionsResetResult", "AnyParams", "HealthResult", "DevicePairListResult", "NodeListResult",
                "ExecApprovalListResult", "QuestionListResult",
            ]
        }
        for name in expected {
            #expect(report.checked[name, default: 0] > 0, "v\(version): no \(name) was validated")
        }
        let unexpected = report.unchecked.subtracting(
            ProtocolFrameDefinitions.knownUnchecked(forProtocol: version).union(["params of does.not.exist"]))
        #expect(unexpected.isEmpty, "v\(version): frames without a definition: \(unexpected.sorted())")
        #expect(report.exempted.isEmpty, "v\(version): nothing here is wrong on purpose: \(report.exempted)")
    }

    /// One request per method the gateway serves beyond the chat flow, with params a client would send.
    static func requests(version: Int) -> [(String, JSONValue)] {
        var requests: [(String, JSONValue)] = [
            ("chat.history", ["sessionKey": "main", "limit": 50]),
            ("sessions.list", ["limit": 10, "includeLastMessage": true]),
            ("sessions.patch", ["key": "main", "model": "openclaw-test/scripted-agent", "sendPolicy": "allow"]),
            ("sessions.reset", ["key": "other", "reason": "new"]),
            ("models.list", [:]), ("agent.identity.get", [:]), ("agent.identity.get", ["agentId": "main"]),
            ("commands.list", ["scope": "text", "includeArgs": false]), ("device.pair.list", [:]),
            ("node.list", [:]), ("health", [:]),
        ]
        if version >= 4 {
            requests += [
                ("models.list", ["view": "configured"]),
                ("chat.message.get", ["sessionKey": "main", "messageId": "m-none"]),
                ("exec.approval.list", [:]), ("approval.history", ["limit": 5]), ("question.list", [:]),
                ("sessions.list", ["sortBy": "updatedAt", "archived": false]),
            ]
        }
        return requests
    }
}
