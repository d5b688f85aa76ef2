import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Requests and events over a real socket")
struct RequestAndEventTests {
    @Test func twoHundredConcurrentRequestsEachGetTheirOwnAnswer() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            try await connection.connect()
            let results = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let key = "session-\(index)"
                        // Matching is the point, not speed: room for a loaded machine.
                        let payload = try await connection.request(
                            "chat.history", params: ["sessionKey": .string(key)], timeout: .seconds(30))
                        return (index, payload?["sessionKey"]?.stringValue)
                    }
                }
                var collected: [Int: String?] = [:]
                for try await (index, key) in group { collected[index] = key }
                return collected
            }
            #expect(results.count == 200)
            for (index, key) in results { #expect(key == "session-\(index)") }
        }
    }

    @Test func responsesInterleaveWithStreamedEvents() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            let recorder = EventRecorder(connection)
            try await connection.connect()
            let runId = "run-interleave"
            let ack = try await connection.request(
                "chat.send",
                params: ["sessionKey": "main", "message": "hello there", "idempotencyKey": .string(runId)]
            )
            #expect(ack?["runId"] == .string(runId))
            // Requests answered while the reply streams.
            for _ in 0..<5 { _ = try await connection.request("health") }
            #expect(
                await eventually {
                    recorder.contains { event in
                        guard case .event(let frame) = event, frame.event == "chat" else { return false }
                        return frame.payload?["state"] == "final" && frame.payload?["runId"] == .string(runId)
                    }
                }
            )
            let chatEvents = recorder.events.compactMap { event -> EventFrame? in
                if case .event(let frame) = event, frame.event == "chat" { return frame }
                return nil
            }
            #expect(chatEvents.filter { $0.payload?["state"] == "delta" }.count >= 1)
            #expect(chatEvents.filter { $0.payload?["state"] == "final" }.count == 1)
            // Frame seq increases without gaps on a healthy connection.
            #expect(!recorder.contains { if case .gap = $0 { return true } else { return false } })
        }
    }

    /// A connected connection to a gateway that never answers `sessions.list`.
    static func connectionIgnoringSessionsList(_ gateway: TestGateway) async throws -> GatewayConnection {
        var faults = FaultPlan()
        faults.ignoreRequests = ["sessions.list"]
        await gateway.setFaults(faults)
        let connection = try Harness.connection(to: gateway)
        try await connection.connect()
        return connection
    }

    @Test func aRequestWithNoAnswerTimesOutAlone() async throws {
        try await withTestGateway { gateway in
            let connection = try await Self.connectionIgnoringSessionsList(gateway)
            await #expect(throws: GatewayError.timeout(method: "sessions.list", afterMs: 200)) {
                try await connection.request("sessions.list", params: [:], timeout: .milliseconds(200))
            }
            // The connection is still usable.
            #expect(try await connection.request("health") != nil)
        }
    }

    /// One timer serves every request: a short timeout asked for after a long one still fires on time,
    /// the long one fires at its own deadline, and answered requests in between are not disturbed.
    @Test func shortAndLongTimeoutsEachFireAtTheirOwnDeadline() async throws {
        try await withTestGateway { gateway in
            let connection = try await Self.connectionIgnoringSessionsList(gateway)
            let clock = ContinuousClock()
            let start = clock.now
            async let long: Duration = {
                _ = try? await connection.request("sessions.list", params: [:], timeout: .seconds(20))
                return clock.now - start
            }()
            try await Task.sleep(for: .milliseconds(50))
            await #expect(throws: GatewayError.timeout(method: "sessions.list", afterMs: 300)) {
                try await connection.request("sessions.list", params: [:], timeout: .milliseconds(300))
            }
            // Bounds, not measures: the short one did not wait for the long one's timer.
            #expect(clock.now - start < .seconds(15))
            #expect(try await connection.request("health") != nil)
            let longElapsed = await long
            #expect(longElapsed >= .seconds(20))
            #expect(longElapsed < .seconds(40))
        }
    }

    @Test func everyPendingRequestFailsPromptlyWhenTheGatewayDrops() async throws {
        try await withTestGateway { gateway in
            let connection = try await Self.connectionIgnoringSessionsList(gateway)
            let started = ContinuousClock.now
            let pendingRequests = (0..<2).map { _ in
                Task { try await connection.request("sessions.list", params: [:], timeout: .seconds(30)) }
            }
            try await Task.sleep(for: .milliseconds(100))
            await gateway.dropAllConnections()
            for request in pendingRequests {
                do {
                    _ = try await request.value
                    Issue.record("a pending request succeeded after the drop")
                } catch {
                    #expect(error as? GatewayError == .connectionLost(.connectionLost))
                }
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(await connection.state == .disconnected(.connectionLost))
            await #expect(throws: GatewayError.notConnected) { try await connection.request("health") }
        }
    }

    @Test func malformedAndUnknownFramesAreSurfacedAndHarmless() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            let recorder = EventRecorder(connection)
            try await connection.connect()
            await gateway.sendRaw("this is not json")
            await gateway.sendRaw(#"{"type":"cancel","id":"x"}"#)
            await gateway.sendRaw(#"{"type":"event","event":"brand.new.event","payload":{"x":1}}"#)
            await gateway.sendRaw(#"{"type":"res","id":"nobody-asked","ok":true}"#)
            #expect(
                await eventually {
                    recorder.contains { if case .malformedFrame = $0 { return true } else { return false } }
                        && recorder.contains { $0 == .unknownFrame(type: "cancel") }
                        && recorder.contains { event in
                            if case .event(let frame) = event { return frame.event == "brand.new.event" }
                            return false
                        }
                }
            )
            #expect(try await connection.request("health") != nil)
            #expect(await connection.state.isConnected)
        }
    }

    @Test func anOversizedInboundFrameClosesTheSocketWithAClearReason() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway) { $0.maxInboundFrameBytes = 64 * 1024 }
            try await connection.connect()
            let big = String(repeating: "x", count: 100_000)
            await gateway.sendRaw(#"{"type":"event","event":"big","payload":{"text":"\#(big)"}}"#)
            #expect(
                await eventually { await connection.state == .disconnected(.inboundTooLarge(limitBytes: 64 * 1024)) })
            // A new connection works: the process and the engine are fine.
            #expect(try await connection.connect().protocolVersion == .v4)
        }
    }

    @Test func anOversizedRequestIsRefusedBeforeItIsSent() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.maxPayload = 4096
        try await withTestGateway(configuration) { gateway in
            let connection = try Harness.connection(to: gateway)
            try await connection.connect()
            let message = String(repeating: "y", count: 5000)
            do {
                _ = try await connection.request(
                    "chat.send",
                    params: ["sessionKey": "main", "message": .string(message), "idempotencyKey": "k"]
                )
                Issue.record("an oversized request was sent")
            } catch let error as GatewayError {
                guard case .payloadTooLarge(_, let limit) = error else {
                    Issue.record("expected payloadTooLarge, got \(error)")
                    return
                }
                #expect(limit == 4096)
            }
            #expect(await gateway.sentUserMessages(sessionKey: "main").isEmpty)
            #expect(await connection.state.isConnected)
        }
    }

    @Test func aSkippedSeqNumberIsDeliveredAsAGap() async throws {
        try await withTestGateway { gateway in
            var faults = FaultPlan()
            faults.skipSeqAfterEvents = 2
            await gateway.setFaults(faults)
            let connection = try Harness.connection(to: gateway)
            let recorder = EventRecorder(connection)
            try await connection.connect()
            // A streamed reply is a burst of broadcast events: the third one comes with a skipped seq.
            _ = try await connection.request(
                "chat.send",
                params: ["sessionKey": "main", "message": "hello", "idempotencyKey": "gap-run"]
            )
            #expect(
                await eventually {
                    recorder.contains { if case .gap = $0 { return true } else { return false } }
                }
            )
            #expect(await connection.state.isConnected, "a gap is reported, not fatal")
        }
    }

    @Test(arguments: [MissingScopeStyle.legacy, .forbidden])
    func aMissingScopeNamesTheScope(style: MissingScopeStyle) async throws {
        var configuration = TestGatewayConfiguration()
        configuration.missingScopeStyle = style
        try await withTestGateway(configuration) { gateway in
            let connection = try Harness.connection(to: gateway) { $0.scopes = [OperatorScope.read] }
            try await connection.connect()
            await #expect(throws: GatewayError.missingScope(scope: "operator.write", method: "chat.send")) {
                try await connection.request(
                    "chat.send",
                    params: ["sessionKey": "main", "message": "hi", "idempotencyKey": "k1"]
                )
            }
        }
    }
}

@Suite("Liveness and shutdown")
struct LivenessTests {
    // Silence is a question (a ping) before a verdict: `LivenessProbeTests` covers a quiet gateway that
    // answers and one that does not, against the hostile gateway.

    @Test func shutdownIsARestartWithTheExpectedDelay() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            let recorder = EventRecorder(connection)
            try await connection.connect()
            await gateway.shutdown(restartExpectedMs: 5000)
            let expected = DisconnectReason.gatewayRestarting(restartExpectedMs: 5000)
            #expect(await eventually { await connection.state == .disconnected(expected) })
            #expect(
                await eventually {
                    recorder.contains { event in
                        if case .event(let frame) = event { return frame.event == "shutdown" }
                        return false
                    }
                }
            )
        }
    }

    @Test func aRotatedSharedSecretClosesWithAuthChanged() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            try await connection.connect()
            await gateway.rotateSharedAuth(to: .token("new-token"))
            #expect(await eventually { await connection.state == .disconnected(.authChanged) })
        }
    }
}

@Suite("Secrets")
struct SecretTests {
    @Test func theTraceNeverShowsTheTokenTheDeviceTokenOrTheSignature() async throws {
        try await withTestGateway { gateway in
            let trace = TraceRecorder()
            let tokens = InMemoryDeviceTokenStore()
            let connection = try Harness.connection(
                to: gateway,
                credential: .token("test-token"),
                tokenStore: tokens,
                trace: trace
            )
            let session = try await connection.connect()
            _ = try await connection.request("health")
            let deviceToken = try #require(session.hello.auth?.deviceToken)
            let all = trace.all.joined(separator: "\n")
            #expect(trace.all.count >= 3)
            #expect(!all.contains("test-token"))
            #expect(!all.contains(deviceToken))
            #expect(all.contains("<redacted>"))
        }
    }
}
