import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Test gateway faults and server events")
struct FaultTests {
    static let fast = ScriptedAgent(chunkSize: 8, chunkDelayMs: 2, slowChunkDelayMs: 30)

    @Test func startupSidecarsRefusalCloses1013() async throws {
        try await withTestGateway { gateway in
            await gateway.setFaults(.startupSidecars)
            let (client, response) = try await HandshakeHelper().connect(to: gateway.url)
            #expect(response["error"]?["code"] == "UNAVAILABLE")
            #expect(response["error"]?["retryable"] == true)
            #expect(response["error"]?["details"]?["reason"] == "startup-sidecars")
            #expect(try await client.closeCode() == 1013)
        }
    }

    @Test func omittedAndDelayedChallenge() async throws {
        try await withTestGateway { gateway in
            await gateway.setFaults(FaultPlan(omitChallenge: true))
            let silent = try await RawGatewayClient.connect(to: gateway.url)
            await #expect(throws: ClientTimeout.self) { _ = try await silent.next(timeout: .milliseconds(150)) }
            await silent.close()
            await gateway.setFaults(FaultPlan(challengeDelayMs: 150))
            let start = ContinuousClock.now
            let delayed = try await RawGatewayClient.connect(to: gateway.url)
            _ = try await delayed.event("connect.challenge")
            #expect(ContinuousClock.now - start >= .milliseconds(140))
            await delayed.close()
        }
    }

    @Test func skipSeqCreatesOneGap() async throws {
        try await withTestGateway(.init(tickIntervalMs: 100)) { gateway in
            await gateway.setFaults(FaultPlan(skipSeqAfterEvents: 2))
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            for _ in 0..<4 { _ = try await client.event("tick") }
            let seqs = client.frames.compactMap { $0["seq"]?.intValue }
            #expect(Array(seqs.prefix(4)) == [1, 2, 4, 5])
            await client.close()
        }
    }

    @Test func ticksCanBePaused() async throws {
        try await withTestGateway(.init(tickIntervalMs: 20)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.event("tick")
            await gateway.setTicksPaused(true)
            // Counted where they are sent: once paused, not one more, however busy the machine is.
            let sent = await gateway.ticksSent()
            try await Task.sleep(for: .milliseconds(300))
            #expect(await gateway.ticksSent() == sent)
            // And on the wire: what arrives is at most what was sent before the pause (ticks sent
            // before this socket's handshake never reach it).
            #expect(client.frames.count { $0["event"] == "tick" } <= sent)
            await client.close()
        }
    }

    @Test func dropAfterRunFramesAndDropOnChatSend() async throws {
        try await withTestGateway(.init(agent: Self.fast)) { gateway in
            await gateway.setFaults(FaultPlan(dropConnectionAfterRunFrames: 3))
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("slow please", key: "drop-run")
            #expect(try await client.closeCode() == nil)
            let runFrames = client.frames.filter { $0["type"] == "event" && $0["payload"]?["runId"] == "drop-run" }
            #expect(runFrames.count == 3)

            await gateway.setFaults(FaultPlan(dropConnectionOnChatSend: .beforeAck))
            let (second, _) = try await HandshakeHelper().open(gateway.url)
            try await second.send(
                RequestFrame(
                    id: "s1", method: "chat.send",
                    params: [
                        "sessionKey": "main", "message": "hello", "idempotencyKey": "lost-ack",
                    ]
                ).json)
            #expect(try await second.closeCode() == nil)
            #expect(second.frames.allSatisfy { $0["id"] != "s1" })
            let (retry, _) = try await HandshakeHelper().open(gateway.url)
            let again = try await retry.chatSend("hello", key: "lost-ack")
            #expect(again["payload"]?["status"] == "in_flight" || again["payload"]?["status"] == "ok")
            #expect(await gateway.sentUserMessages(sessionKey: "main").filter { $0 == "hello" }.count == 1)
            await retry.close()
        }
    }

    @Test func ignoredAndDelayedRequests() async throws {
        try await withTestGateway { gateway in
            await gateway.setFaults(FaultPlan(ignoreRequests: ["models.list"], delayResponsesMs: 100))
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            try await client.send(RequestFrame(id: "m", method: "models.list", params: [:]).json)
            await #expect(throws: ClientTimeout.self) {
                _ = try await client.response(id: "m", timeout: .milliseconds(300))
            }
            let start = ContinuousClock.now
            _ = try await client.request("health")
            #expect(ContinuousClock.now - start >= .milliseconds(90))
            await client.close()
        }
    }

    @Test func shutdownRotateDropAndRaw() async throws {
        try await withTestGateway { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            await gateway.sendRaw("{\"type\":\"event\",\"event\":\"chat\",\"payload\":{\"bogus\":")
            _ = try await client.next { $0.stringValue?.hasPrefix("{\"type\"") == true }
            await gateway.shutdown(restartExpectedMs: 1500)
            let shutdown = try await client.event("shutdown")
            #expect(shutdown["payload"] == ["reason": "gateway stopping", "restartExpectedMs": 1500])
            #expect(try await client.closeCode() == 1012)

            let (shared, _) = try await HandshakeHelper().open(gateway.url)
            await gateway.rotateSharedAuth(to: .token("new-token"))
            #expect(try await shared.closeCode() == 4001)

            let (dropped, _) = try await HandshakeHelper(auth: ConnectAuth(token: "new-token")).open(gateway.url)
            #expect(await gateway.connectionCount() == 1)
            await gateway.dropAllConnections()
            #expect(try await dropped.closeCode() == nil)
            try await Task.sleep(for: .milliseconds(50))
            #expect(await gateway.connectionCount() == 0)
        }
    }
}
