import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The rules of a real gateway that a lenient test gateway would hide from the client: the duplicate
/// memory's limits, cached failures, stop commands, sanitising, history budgets, delta throttling,
/// late-v4 events, v3's global frame `seq`, `sessions.patch`, loopback browser origins.
@Suite("Test gateway: upstream's chat rules")
struct UpstreamChatRulesTests {
    static let quick = ScriptedAgent.custom { _ in AgentScript(steps: [.say("ok")], chunkDelayMs: 0) }

    @Test func finishedKeysAreForgottenAfterTheWindow() async throws {
        let configuration = TestGatewayConfiguration(agent: Self.quick, dedupeTTLMs: 4_000)
        try await withValidatedTestGateway(configuration) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("first", key: "k1")
            _ = try await client.terminalChat(runId: "k1")
            let repeated = try await client.chatSend("first", key: "k1")
            #expect(repeated["payload"] == ["runId": "k1", "status": "ok"])
            #expect(await gateway.runCount() == 1)
            try await Task.sleep(for: .milliseconds(4_200))  // the window itself is what is tested
            let late = try await client.chatSend("first", key: "k1")
            #expect(late["payload"] == ["runId": "k1", "status": "started"])
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["first", "first"])
            await client.close()
        }
    }

    @Test func onlyTheNewestThousandKeysAreRemembered() async throws {
        let configuration = TestGatewayConfiguration(agent: Self.quick, dedupeMaxEntries: 2)
        try await withValidatedTestGateway(configuration) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            for key in ["a", "b", "c"] {
                _ = try await client.chatSend("message \(key)", key: key)
                _ = try await client.terminalChat(runId: key)
            }
            #expect(try await client.chatSend("message c", key: "c")["payload"]?["status"] == "ok")
            #expect(try await client.chatSend("message a", key: "a")["payload"]?["status"] == "started")
            await client.close()
        }
    }

    @Test func aFailedRunsKeyIsAnsweredWithTheCachedError() async throws {
        try await withValidatedTestGateway(.init(agent: ScriptedAgent(chunkDelayMs: 0))) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("please fail", key: "f1")
            #expect(try await client.terminalChat(runId: "f1")["payload"]?["state"] == "error")
            let repeated = try await client.chatSend("please fail", key: "f1")
            #expect(repeated["ok"] == false)
            #expect(repeated["payload"]?["status"] == "error")
            #expect(repeated["payload"]?["runId"] == "f1")
            #expect(repeated["payload"]?["summary"]?.stringValue?.isEmpty == false)
            #expect(await gateway.runCount() == 1)
            await client.close()
        }
    }

    @Test(arguments: ["/stop", "STOP!", "please stop", "wait", "  Stop   the agent. ", "arrête", "/STOP."])
    func stopPhrasesAbortInsteadOfStartingARun(phrase: String) async throws {
        try await withValidatedTestGateway(.init(agent: ScriptedAgent())) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("talk until stopped", key: "slow-1")
            let answer = try await client.chatSend(phrase, key: "stop-1")
            #expect(answer["payload"] == ["ok": true, "aborted": true, "runIds": ["slow-1"]])
            #expect(try await client.terminalChat(runId: "slow-1")["payload"]?["state"] == "aborted")
            let again = try await client.chatSend(phrase, key: "stop-1")
            #expect(again["payload"] == ["ok": true, "aborted": false, "runIds": []])
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["talk until stopped"])
            #expect(await gateway.runCount() == 1)
            await client.close()
        }
    }

    @Test func notAStopPhrase() async throws {
        try await withValidatedTestGateway(.init(agent: Self.quick)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let answer = try await client.chatSend("stop the music and wait for me", key: "m1")
            #expect(answer["payload"]?["status"] == "started")
            await client.close()
        }
    }

    @Test func userTextIsStoredNormalised() async throws {
        try await withValidatedTestGateway(.init(agent: Self.quick)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("cafe\u{301}\u{7}\tbell\u{1B}", key: "n1")
            let stored = try #require(await gateway.sentUserMessages(sessionKey: "main").first)
            #expect(Array(stored.unicodeScalars) == Array("caf\u{E9}\tbell".unicodeScalars))
            await client.close()
        }
    }

    @Test func historyCutsLongTextsAndReplacesOversizedMessages() async throws {
        try await withValidatedTestGateway(.init(agent: Self.quick)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend(String(repeating: "a", count: 30_000), key: "long")
            _ = try await client.terminalChat(runId: "long")
            _ = try await client.chatSend(String(repeating: "b", count: 140_000), key: "huge")
            _ = try await client.terminalChat(runId: "huge")
            let page = try await client.request("chat.history", params: ["sessionKey": "main"])
            let messages = try #require(page["payload"]?["messages"]?.arrayValue)
            let cut = try #require(messages.first?["content"]?.stringValue)
            #expect(cut == String(repeating: "a", count: 12_000) + "\n...(truncated)...")
            #expect(messages[2]["content"]?.stringValue?.count == 12_000 + 18)

            let wide = try await client.request("chat.history", params: ["sessionKey": "main", "maxChars": 500_000])
            let oversized = try #require(wide["payload"]?["messages"]?.arrayValue?[2])
            #expect(oversized["__openclaw"] == ["truncated": true, "reason": "oversized"])
            #expect(oversized["content"]?.arrayValue?.first?["text"] == "[chat.history omitted: message too large]")
            #expect(oversized["role"] == "user")
            await client.close()
        }
    }

    @Test func historyPagesStayUnderSixMebibytes() async throws {
        try await withValidatedTestGateway(
            .init(agent: ScriptedAgent.custom { _ in AgentScript(steps: [], silent: true) })
        ) {
            gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let big = String(repeating: "c", count: 120_000)
            for index in 0..<56 {
                _ = try await client.chatSend("\(index) \(big)", key: "m\(index)")
            }
            let page = try await client.request(
                "chat.history", params: ["sessionKey": "main", "maxChars": 500_000, "limit": 1000])
            let messages = try #require(page["payload"]?["messages"]?.arrayValue)
            #expect(messages.count < 56 && messages.count > 40)
            #expect(JSONSerializer.string(.array(messages)).utf8.count <= 6 * 1024 * 1024)
            // The newest survive; the oldest went first.
            #expect(messages.last?["content"]?.stringValue?.hasPrefix("55 ") == true)
            #expect(page["payload"]?["hasMore"] == true)
            #expect(page["payload"]?["nextOffset"]?.intValue == messages.count)
            await client.close()
        }
    }

    @Test(arguments: [3, 4])
    func deltasAreThrottledAndCoalesced(version: Int) async throws {
        let agent = ScriptedAgent(chunkSize: 4, chunkDelayMs: 2)
        try await withValidatedTestGateway(.init(protocolNumber: version, agent: agent)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let message = "a message long enough for many chunks of four characters each, streamed fast"
            _ = try await client.chatSend(message, key: "t1")
            let final = try await client.terminalChat(runId: "t1")
            let finalText = try #require(final["payload"]?["message"]?["content"]?.arrayValue?.first?["text"])
            let deltas = client.chatPayloads(runId: "t1").filter { $0["state"] == "delta" }
            let chunks = client.frames.filter { $0["event"] == "agent" && $0["payload"]?["stream"] == "assistant" }
            #expect(deltas.count < chunks.count, "\(deltas.count) deltas for \(chunks.count) chunks")
            if version == 3 {
                #expect(deltas.last?["message"]?["content"]?.arrayValue?.first?["text"] == finalText)
            } else {
                #expect(.string(deltas.compactMap { $0["deltaText"]?.stringValue }.joined()) == finalText)
            }
            await client.close()
        }
    }

    @Test(arguments: [3, 4])
    func lateV4StatusAndMidRunTextReset(version: Int) async throws {
        let agent = ScriptedAgent.custom { _ in
            AgentScript(steps: [.status("preparing_context"), .say("Part one. "), .commitText, .say("Part two.")])
        }
        try await withValidatedTestGateway(.init(protocolNumber: version, agent: agent)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("go", key: "r1")
            let final = try await client.anyFrame("the final") { frame in
                frame["event"] == "chat" && frame["payload"]?["runId"] == "r1" && frame["payload"]?["state"] == "final"
            }
            #expect(final["payload"]?["message"]?["content"]?.arrayValue?.first?["text"] == "Part one. Part two.")
            let payloads = client.chatPayloads(runId: "r1")
            let history = await gateway.history(sessionKey: "main").compactMap { $0["role"]?.stringValue }
            if version == 4 {
                #expect(payloads.first?["state"] == "status")
                #expect(payloads.first?["phase"] == "preparing_context")
                #expect(payloads.contains { $0["deltaText"] == "" && $0["replace"] == true && $0["message"] == nil })
                #expect(history == ["user", "assistant", "assistant"])
            } else {
                #expect(!payloads.contains { $0["state"] == "status" || $0["replace"] != nil })
                #expect(history == ["user", "assistant"])
            }
            await client.close()
        }
    }

    @Test(arguments: [3, 4])
    func frameSeqIsGlobalInV3AndPerSocketInV4(version: Int) async throws {
        try await withValidatedTestGateway(.init(protocolNumber: version, agent: Self.quick)) { gateway in
            let (first, _) = try await HandshakeHelper().open(gateway.url)
            let (second, _) = try await HandshakeHelper().open(gateway.url)
            await gateway.setFaults(FaultPlan(hiddenBroadcastPercent: 100))
            _ = try await first.chatSend("hello", key: "g1")
            _ = try await first.terminalChat(runId: "g1")
            _ = try await second.terminalChat(runId: "g1")
            let seqs = { (client: RawGatewayClient) in
                client.frames.filter { $0["event"] == "chat" || $0["event"] == "agent" }.compactMap {
                    $0["seq"]?.intValue
                }
            }
            let gaps = zip(seqs(first), seqs(first).dropFirst()).filter { $1 != $0 + 1 }.count
            if version == 3 {
                #expect(gaps > 0, "hidden events consume global numbers")
                #expect(seqs(first) == seqs(second))
            } else {
                #expect(gaps == 0)
            }
            await first.close()
            await second.close()
        }
    }

    @Test func sessionsPatchNeedsAdminExceptV4LabelAndModel() async throws {
        try await withValidatedTestGateway(
            .init(protocolNumber: 3),
            recorder: try FrameConformanceRecorder(protocolVersion: 3)
        ) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let refused = try await client.request("sessions.patch", params: ["key": "main", "label": "Work"])
            #expect(refused["error"]?["message"] == "missing scope: operator.admin")
            await client.close()
        }
        try await withValidatedTestGateway(
            .init(protocolNumber: 4),
            recorder: try FrameConformanceRecorder(
                protocolVersion: 4,
                invalidOnPurpose: [InvalidOnPurpose("sessions.patch", params: ["key": "main", "colour": "red"])])
        ) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let labelled = try await client.request("sessions.patch", params: ["key": "main", "label": "Work"])
            #expect(labelled["payload"]?["ok"] == true)
            #expect(labelled["payload"]?["key"] == "agent:main:main")
            #expect(labelled["payload"]?["entry"]?["label"] == "Work")
            let thinking = try await client.request(
                "sessions.patch", params: ["key": "main", "thinkingLevel": "high"])
            #expect(thinking["error"]?["code"] == "FORBIDDEN")
            let cleared = try await client.request("sessions.patch", params: ["key": "main", "label": .null])
            #expect(cleared["payload"]?["entry"]?["label"] == nil)
            let unknown = try await client.request("sessions.patch", params: ["key": "main", "colour": "red"])
            #expect(unknown["error"]?["code"] == "INVALID_REQUEST")
            await client.close()
        }
        var admin = HandshakeHelper()
        admin.scopes = [OperatorScope.admin]
        try await withValidatedTestGateway(
            .init(protocolNumber: 3),
            recorder: try FrameConformanceRecorder(protocolVersion: 3)
        ) { gateway in
            let (client, _) = try await admin.open(gateway.url)
            let patched = try await client.request("sessions.patch", params: ["key": "main", "thinkingLevel": "high"])
            #expect(patched["payload"]?["entry"]?["thinkingLevel"] == "high")
            await client.close()
        }
    }

    @Test func aLoopbackOriginOnALoopbackConnectionIsAccepted() async throws {
        try await withValidatedTestGateway { gateway in
            let (client, response) = try await HandshakeHelper().connect(
                to: gateway.url, origin: "http://localhost:5173")
            #expect(response["ok"] == true)
            await client.close()
            let (other, refused) = try await HandshakeHelper().connect(to: gateway.url, origin: "https://evil.example")
            #expect(refused["error"]?["details"]?["code"] == "CONTROL_UI_ORIGIN_NOT_ALLOWED")
            await other.close()
        }
    }
}
