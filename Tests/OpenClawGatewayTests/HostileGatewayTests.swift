import OpenClawGateway
import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// What a hostile or broken gateway controls, bounded: each scenario over a real socket from
/// ``HostileGateway``, asserting no crash, a bounded buffer (the flow counters, not RSS) and a clear,
/// typed outcome.
@Suite("Bounds on what a gateway controls")
struct HostileGatewayTests {
    @Test func absurdPolicyValuesAreClampedNotTrusted() async throws {
        let policy = HostileScript.policy(maxPayload: Int.max, maxBufferedBytes: -5, tickIntervalMs: 1 << 62)
        try await withHostileGateway(HostileScript(policy: policy)) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let session = try await connection.connect()
            #expect(session.hello.policy.tickIntervalMs == PolicyBounds.tickIntervalMs.upperBound)
            #expect(session.hello.policy.maxPayload == PolicyBounds.maxPayload.upperBound)
            // A nonsense (non-positive) value reads as absent: the documented default, itself within bounds.
            #expect(session.hello.policy.maxBufferedBytes == GatewayLimits.defaultMaxBufferedBytes)
            // Everything derived from the interval is computed without overflow.
            await connection.reconnectNow()
            #expect(try await connection.request("health") != nil)
            #expect(await connection.state == .connected(session))
            await connection.disconnect()
        }
    }

    @Test func aMessageFragmentedPastTheLimitClosesWith1009() async throws {
        // 96 MiB: more than loopback's socket buffers can hold (send 4 MiB + receive up to 32 MiB here), so
        // the gateway cannot finish writing it unless the client reads it all.
        let script = HostileScript(afterHello: [.fragmentedText(totalBytes: 96 << 20, fragmentBytes: 16 << 10)])
        try await withHostileGateway(script) { gateway in
            let connection = try Harness.connection(url: gateway.url) { $0.maxInboundFrameBytes = 1 << 20 }
            let states = StateRecorder(connection)
            _ = try? await connection.connect()
            // Ended by the size limit, whether the message came in before the handshake had completed
            // (the attempt fails) or after (the connection ends).
            let ended = await states.first(timeout: .seconds(20)) {
                $0 == .disconnected(.inboundTooLarge(limitBytes: 1 << 20))
                    || $0 == .failed(.connectionLost(.inboundTooLarge(limitBytes: 1 << 20)))
            }
            #expect(ended != nil, "states: \(states.states)")
            #expect(await gateway.waitFor { $0.clientCloseCodes.contains(GatewayCloseCode.messageTooBig) })
            // The client stopped the 6,144-fragment message long before its end.
            #expect(gateway.observed.scriptsCompleted == 0)
            await connection.disconnect()
        }
    }

    @Test func cumulativeDeltasKeepOnlyTheNewestWhileTheSubscriberIsBehind() async throws {
        let chunk = "0123456789abcdef"
        let count = 1000
        let script = HostileScript(
            protocolNumber: 3, afterHello: [.cumulativeDeltas(count: count, chunk: chunk, final: true)])
        try await withHostileGateway(script) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let events = connection.events()
            try await connection.connect()
            // Not reading: the whole flood is taken off the socket and merged, none of it queued.
            #expect(await gateway.waitFor { $0.scriptsCompleted == 1 })
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await connection.inboundFlow.events.coalescedEvents >= count - 1
                })
            let flow = await connection.inboundFlow.events
            #expect(flow.peakBufferedEvents <= 3, "connected, the newest delta and the final")

            var texts: [String] = []
            var finalText: String?
            for await event in events {
                guard case .event(let frame) = event, let chat = ChatEvent(frame: frame) else { continue }
                if chat.state == .final {
                    finalText = chat.message?.text
                    break
                }
                texts.append(chat.message?.text ?? "")
            }
            let whole = HostileAction.replyText(chunk: chunk, count: count)
            #expect(texts.map(\.utf8.count) == [whole.utf8.count])
            let newest = texts.first == whole
            #expect(newest, "the merged delta holds the whole reply")
            #expect(finalText?.utf8.count == whole.utf8.count)
            await connection.disconnect()
        }
    }

    @Test func appendingDeltasAreNeverDroppedAndTheReaderWaitsInstead() async throws {
        // More frames than the subscriber's mark (1,024) plus the transport's (1,024 frames).
        let chunk = String(repeating: "v", count: 100)
        let count = 3000
        let script = HostileScript(
            protocolNumber: 4, afterHello: [.appendingDeltas(count: count, chunk: chunk, final: true)])
        try await withHostileGateway(script) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let events = connection.events()
            try await connection.connect()
            // Not reading: the subscriber fills to its mark, the reader waits, the socket is not read.
            #expect(
                await eventually(timeout: .seconds(20)) {
                    let flow = await connection.inboundFlow
                    return flow.events.readerWaits > 0 && (flow.transport?.readPauses ?? 0) > 0
                })
            let flow = await connection.inboundFlow
            // The reader checks the mark after each turn of frames, so it overshoots by less than a turn.
            #expect(flow.events.peakBufferedEvents < 1024 + GatewayConnection.framesPerTurn)
            #expect((flow.transport?.peakBufferedBytes ?? .max) <= (4 << 20) + (1 << 20))
            #expect(flow.events.coalescedEvents == 0)

            var text = ""
            var deltas = 0
            for await event in events {
                guard case .event(let frame) = event, let chat = ChatEvent(frame: frame) else { continue }
                if chat.state == .final { break }
                deltas += 1
                text += chat.deltaText ?? ""
            }
            #expect(deltas == count)
            #expect(text.utf8.count == chunk.utf8.count * count)
            let complete = text == HostileAction.replyText(chunk: chunk, count: count)
            #expect(complete, "every appended chunk, in order")
            await connection.disconnect()
        }
    }

    @Test func aPingFloodGetsAtMostOnePongPerSecond() async throws {
        let pings = 20_000
        try await withHostileGateway(HostileScript(afterHello: [.pings(count: pings)])) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let started = ContinuousClock.now
            try await connection.connect()
            #expect(await gateway.waitFor { $0.scriptsCompleted == 1 })
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await connection.inboundFlow.transport?.pingsReceived == pings
                })
            #expect(try await connection.request("health", timeout: .seconds(20)) != nil)
            let pongs = gateway.observed.pongsReceived
            // Whole seconds begun since the start (read after the pongs, so none is counted in less time).
            let elapsed = ContinuousClock.now - started
            let seconds = Int(elapsed.components.seconds) + 1
            let flow = await connection.inboundFlow.transport
            #expect(pongs >= 1)
            #expect(
                pongs <= seconds + 2,
                "one pong per second at most, not one per ping (\(elapsed)): \(String(describing: flow))")
            await connection.disconnect()
        }
    }

    @Test func aCloseRightAfterHelloSaysItsCodeAndReason() async throws {
        let script = HostileScript(afterHello: [.close(code: 4008, reason: "slow consumer\u{07}, bye")])
        try await withHostileGateway(script) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let expected = DisconnectReason.closed(code: 4008, reason: "slow consumer, bye")
            do throws(GatewayError) {
                try await connection.connect()
            } catch {
                #expect(error == .connectionLost(expected))
            }
            #expect(
                await eventually {
                    let state = await connection.state
                    return state == .disconnected(expected) || state == .failed(.connectionLost(expected))
                })
            // What a request or the CLI reports now: the code and the gateway's reason, not "connect first".
            let error = await connection.state.unavailableError
            #expect(error == .connectionLost(expected))
            #expect(error.message.contains("4008"))
            #expect(error.message.contains("slow consumer, bye"))
        }
    }
}
