import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `sessions.subscribe` and the `sessions.changed` events it turns on.
@Suite("Test gateway: session events")
struct SessionEventsTests {
    @Test func onlyASubscribedSocketGetsTargetedUsageAroundARun() async throws {
        let quick = ScriptedAgent.custom { _ in AgentScript(steps: [.say("ok")], chunkDelayMs: 0) }
        try await withValidatedTestGateway(.init(agent: quick)) { gateway in
            let (subscriber, _) = try await HandshakeHelper().open(gateway.url)
            let (other, _) = try await HandshakeHelper().open(gateway.url)
            #expect(try await subscriber.request("sessions.subscribe", params: [:])["payload"] == ["subscribed": true])
            _ = try await other.chatSend("hello", key: "r1")
            let end = try await subscriber.anyFrame("the run's end") {
                $0["event"] == "sessions.changed" && $0["payload"]?["phase"] == "end"
            }
            #expect(end["seq"] == nil)
            #expect(end["payload"]?["sessionKey"] == "agent:main:main")
            #expect(end["payload"]?["runId"] == "r1")
            #expect(end["payload"]?["inputTokens"] == 12)
            #expect(end["payload"]?["contextTokens"] == 200_000)
            _ = try await other.terminalChat(runId: "r1")
            #expect(!other.frames.contains { $0["event"] == "sessions.changed" })
            await subscriber.close()
            await other.close()
        }
    }

    @Test func commandsListParamsFollowTheVersion() async throws {
        for (version, accepted) in [(3, false), (4, true)] {
            // v3 gets `sessionKey`, which its schema lacks, on purpose.
            let wrongOnPurpose = version < 4 ? [InvalidOnPurpose("commands.list", params: ["sessionKey": "main"])] : []
            let recorder = try FrameConformanceRecorder(protocolVersion: version, invalidOnPurpose: wrongOnPurpose)
            try await withValidatedTestGateway(.init(protocolNumber: version), recorder: recorder) { gateway in
                let (client, _) = try await HandshakeHelper().open(gateway.url)
                let response = try await client.request("commands.list", params: ["sessionKey": "main"])
                #expect((response["ok"] == true) == accepted, "v\(version): \(response)")
                await client.close()
            }
        }
    }
}
