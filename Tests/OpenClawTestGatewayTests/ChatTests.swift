import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Test gateway chat")
struct ChatTests {
    static let fast = ScriptedAgent(chunkSize: 8, chunkDelayMs: 1, slowChunkDelayMs: 25, toolDurationMs: 20)

    @Test(arguments: [3, 4])
    func sendStreamsDeltasThenExactlyOneFinal(version: Int) async throws {
        try await withValidatedTestGateway(.init(protocolNumber: version, agent: Self.fast)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let ack = try await client.chatSend("hello there", key: "run-1")
            #expect(ack["payload"] == ["runId": "run-1", "status": "started"])
            let final = try await client.terminalChat(runId: "run-1")
            #expect(final["payload"]?["state"] == "final")
            try await Task.sleep(for: .milliseconds(50))
            let payloads = client.chatPayloads(runId: "run-1")
            let deltas = payloads.filter { $0["state"] == "delta" }
            // Throttled to one per 150 ms, so a quick reply may come as one delta plus the flush.
            #expect(!deltas.isEmpty)
            #expect(payloads.filter { $0["state"] != "delta" }.count == 1)
            #expect(payloads.allSatisfy { $0["sessionKey"] == "agent:main:main" })
            let expected = "You said: \"hello there\". This is the scripted test agent."
            let finalText = final["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue
            #expect(finalText == expected)
            if version == 3 {
                #expect(deltas.allSatisfy { $0["deltaText"] == nil && $0["message"] != nil })
                #expect(deltas.last?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue == expected)
            } else {
                let rebuilt = deltas.compactMap { $0["deltaText"]?.stringValue }.joined()
                #expect(rebuilt == expected)
            }

            let history = await gateway.history(sessionKey: "main")
            #expect(history.count == 2)
            #expect(history.first?["role"] == "user")
            #expect(history.first?["content"] == "hello there")
            #expect(history.last?["role"] == "assistant")
            #expect(history.last?["stopReason"] == "stop")
            #expect(history.last?["__openclaw"]?["seq"] == 2)
            let viaRPC = try await client.request("chat.history", params: ["sessionKey": "main"])
            #expect(viaRPC["payload"]?["sessionKey"] == "main")
            #expect(viaRPC["payload"]?["messages"]?.arrayValue == history)
            await client.close()
        }
    }

    @Test func v4DeltasWithoutMessageAndReplaceOnShrink() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4, v4Deltas: .withoutMessage, agent: Self.fast)) {
            gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("please shrink", key: "shrink-1")
            let final = try await client.terminalChat(runId: "shrink-1")
            let deltas = client.chatPayloads(runId: "shrink-1").filter { $0["state"] == "delta" }
            #expect(deltas.allSatisfy { $0["message"] == nil })
            #expect(deltas.contains { $0["replace"] == true })
            var buffer = ""
            for delta in deltas {
                let text = delta["deltaText"]?.stringValue ?? ""
                buffer = delta["replace"] == true ? text : buffer + text
            }
            #expect(buffer == "Final answer: 42. Done.")
            #expect(final["payload"]?["message"]?["content"]?.arrayValue?.first?["text"] == "Final answer: 42. Done.")
            await client.close()
        }
    }

    @Test func repeatedIdempotencyKeyDoesNotStartASecondRun() async throws {
        try await withValidatedTestGateway(.init(agent: Self.fast)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("slow please", key: "same")
            let second = try await client.chatSend("slow please", key: "same")
            #expect(second["payload"] == ["runId": "same", "status": "in_flight"])
            _ = try await client.terminalChat(runId: "same")
            let third = try await client.chatSend("slow please", key: "same")
            #expect(third["payload"] == ["runId": "same", "status": "ok"])
            #expect(await gateway.runCount() == 1)
            #expect(await gateway.sentUserMessages(sessionKey: "agent:main:main") == ["slow please"])
            await client.close()
        }
    }

    @Test func abortMidStreamPersistsThePartial() async throws {
        try await withValidatedTestGateway(.init(agent: Self.fast)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("talk until stopped", key: "abort-me")
            _ = try await client.event("chat") { $0["payload"]?["state"] == "delta" }
            let mismatch = try await client.request(
                "chat.abort", params: ["sessionKey": "agent:main:main", "runId": "abort-me"])
            #expect(mismatch["error"]?["message"] == "runId does not match sessionKey")
            let abort = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "abort-me"])
            #expect(abort["payload"] == ["ok": true, "aborted": true, "runIds": ["abort-me"]])
            let terminal = try await client.terminalChat(runId: "abort-me")
            #expect(terminal["payload"]?["state"] == "aborted")
            #expect(terminal["payload"]?["stopReason"] == "rpc")
            let partial = try #require(
                terminal["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue)
            #expect(!partial.isEmpty && ScriptedAgent.heldWords.hasPrefix(partial))
            try await Task.sleep(for: .milliseconds(150))
            #expect(client.chatPayloads(runId: "abort-me").filter { $0["state"] != "delta" }.count == 1)
            let history = await gateway.history(sessionKey: "main")
            #expect(history.last?["content"]?.arrayValue?.first?["text"]?.stringValue == partial)
            #expect(history.last?["openclawAbort"]?["origin"] == "rpc")
            let unknown = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "nope"])
            #expect(unknown["payload"] == ["ok": true, "aborted": false, "runIds": []])
            await client.close()
        }
    }

    @Test func toolEventsReachOnlyTheSenderWithTheCap() async throws {
        try await withValidatedTestGateway(.init(agent: Self.fast)) { gateway in
            var withCap = HandshakeHelper()
            withCap.caps = ["tool-events"]
            let (watcher, _) = try await withCap.open(gateway.url)
            let (sender, _) = try await withCap.open(gateway.url)
            let (plain, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await sender.chatSend("use a tool", key: "tool-run")
            _ = try await sender.terminalChat(runId: "tool-run")
            _ = try await plain.terminalChat(runId: "tool-run")
            _ = try await watcher.terminalChat(runId: "tool-run")
            let isTool: (JSONValue) -> Bool = { $0["event"] == "agent" && $0["payload"]?["stream"] == "tool" }
            let tools = sender.frames.filter(isTool)
            #expect(tools.count == 2)
            #expect(tools.allSatisfy { $0["seq"] == nil })
            #expect(tools.first?["payload"]?["data"]?["phase"] == "start")
            #expect(tools.first?["payload"]?["data"]?["name"] == "exec")
            #expect(plain.frames.filter(isTool).isEmpty)
            #expect(watcher.frames.filter(isTool).isEmpty)

            let history = await gateway.history(sessionKey: "main")
            let roles = history.compactMap { $0["role"]?.stringValue }
            #expect(roles == ["user", "assistant", "toolResult", "assistant"])
            let toolUse = history[1]
            #expect(toolUse["stopReason"] == "toolUse")
            #expect(toolUse["content"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == ["thinking", "toolCall"])
            #expect(history[2]["toolName"] == "exec")
            #expect(history[2]["toolCallId"] == toolUse["content"]?.arrayValue?.last?["id"])
            #expect(history[3]["stopReason"] == "stop")
            for client in [watcher, sender, plain] { await client.close() }
        }
    }

    @Test func failAndSilentRuns() async throws {
        try await withValidatedTestGateway(.init(agent: Self.fast)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("please fail", key: "fail-1")
            let error = try await client.terminalChat(runId: "fail-1")
            #expect(error["payload"]?["state"] == "error")
            #expect(error["payload"]?["errorMessage"] != nil)
            #expect(error["payload"]?["errorKind"] == "unknown")
            _ = try await client.chatSend("stay silent", key: "silent-1")
            let silent = try await client.terminalChat(runId: "silent-1")
            #expect(silent["payload"]?["state"] == "final")
            #expect(silent["payload"]?["message"] == nil)
            #expect(client.chatPayloads(runId: "silent-1").count == 1)
            await client.close()
        }
    }

    @Test func frameSeqIsPerConnectionAndContiguous() async throws {
        try await withValidatedTestGateway(.init(tickIntervalMs: 40, agent: Self.fast)) { gateway in
            let (early, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await early.event("tick")
            _ = try await early.event("tick")
            let (late, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await late.chatSend("hello", key: "seq-run")
            _ = try await late.terminalChat(runId: "seq-run")
            _ = try await early.terminalChat(runId: "seq-run")
            for client in [early, late] {
                let seqs = client.frames.compactMap { $0["seq"]?.intValue }
                #expect(seqs.first == 1)
                #expect(seqs == Array(1...(seqs.last ?? 0)))
            }
            let runEvents = late.frames.filter { $0["event"] == "agent" || $0["event"] == "chat" }
                .compactMap { $0["payload"] }.filter { $0["runId"] == "seq-run" }
            let agentSeqs = runEvents.filter { $0["stream"] != nil }.compactMap { $0["seq"]?.intValue }
            #expect(agentSeqs == Array(1...agentSeqs.count))
            #expect(
                runEvents.filter { $0["state"] != nil }.compactMap { $0["seq"]?.intValue }.allSatisfy {
                    agentSeqs.contains($0)
                })
            for client in [early, late] { await client.close() }
        }
    }

    @Test func missingScopeStylesAndInvalidFrames() async throws {
        // Not validated: this test sends malformed frames (not JSON, unknown frame members) on purpose.
        try await withTestGateway(.init(protocolNumber: 4)) { gateway in
            var readOnly = HandshakeHelper()
            readOnly.scopes = [OperatorScope.read]
            let (client, _) = try await readOnly.open(gateway.url)
            let send = try await client.chatSend("hi", key: "k")
            #expect(send["error"]?["code"] == "FORBIDDEN")
            #expect(
                send["error"]?["details"]
                    == [
                        "code": "MISSING_SCOPE", "missingScope": "operator.write", "requiredScopes": ["operator.write"],
                    ]
            )
            let unknown = try await client.request("does.not.exist")
            #expect(unknown["error"]?["message"] == "missing scope: operator.admin")
            try await client.sendText("{not json")
            let invalid = try await client.response(id: "invalid")
            let invalidMessage = invalid["error"]?["message"]?.stringValue ?? ""
            #expect(invalidMessage.hasPrefix("invalid request frame: "))
            try await client.send(["type": "req", "id": "x1", "method": "health", "extra": true])
            let extra = try await client.response(id: "x1")
            #expect(extra["error"]?["code"] == "INVALID_REQUEST")
            #expect(try await client.request("health")["ok"] == true)
            await client.close()
        }
        try await withValidatedTestGateway(.init(protocolNumber: 3)) { gateway in
            var readOnly = HandshakeHelper()
            readOnly.scopes = [OperatorScope.read]
            let (client, _) = try await readOnly.open(gateway.url)
            let send = try await client.chatSend("hi", key: "k")
            #expect(send["error"] == ["code": "INVALID_REQUEST", "message": "missing scope: operator.write"])
            let empty = try await HandshakeHelper().open(gateway.url).0
            let blank = try await empty.chatSend("   ", key: "k2")
            #expect(blank["error"]?["message"] == "message or attachment required")
            for socket in [client, empty] { await socket.close() }
        }
    }

    @Test func otherMethods() async throws {
        try await withValidatedTestGateway { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let sessions = try await client.request("sessions.list", params: [:])
            #expect(sessions["payload"]?["sessions"]?.arrayValue?.first?["key"] == "agent:main:main")
            let models = try await client.request("models.list", params: [:])
            #expect((models["payload"]?["models"]?.arrayValue?.count ?? 0) > 0)
            let identity = try await client.request("agent.identity.get", params: [:])
            #expect(identity["payload"]?["agentId"] == "main")
            await client.close()
        }
    }

    @Test func customScriptsAndBenchmarkStream() async throws {
        let agent = ScriptedAgent.custom { _ in
            AgentScript(steps: [.say(String(repeating: "ab", count: 500))], chunkSize: 1, chunkDelayMs: 0)
        }
        // One delta per chunk: the benchmarks measure the client per delta, so they switch the throttle off.
        try await withValidatedTestGateway(.init(agent: agent, deltaThrottleMs: 0)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("anything", key: "bench")
            _ = try await client.terminalChat(runId: "bench", timeout: .seconds(30))
            #expect(client.chatPayloads(runId: "bench").filter { $0["state"] == "delta" }.count == 1000)
            await client.close()
        }
    }

    @Test func benchmarkTriggerStreamsManyDeltas() async throws {
        let configuration = TestGatewayConfiguration(protocolNumber: 4, v4Deltas: .withoutMessage, deltaThrottleMs: 0)
        try await withValidatedTestGateway(configuration) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let start = ContinuousClock.now
            // `stream 20000` is the benchmark size; 5,000 keeps this suite light on a 2-core machine.
            _ = try await client.chatSend("stream 5000", key: "bench-20k")
            let final = try await client.terminalChat(runId: "bench-20k", timeout: .seconds(120))
            let elapsed = ContinuousClock.now - start
            let deltas = client.chatPayloads(runId: "bench-20k").filter { $0["state"] == "delta" }
            #expect(deltas.count == 5_000)
            let text = final["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue
            #expect(text?.count == 30_000)
            #expect(elapsed < .seconds(60), "5,000 deltas took \(elapsed)")
            await client.close()
        }
    }
}
