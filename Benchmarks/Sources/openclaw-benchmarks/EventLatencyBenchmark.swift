import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// Scenario 2b: how soon one event is where a screen can draw it. A single `chat` delta is written by the
/// gateway (in this process, over a loopback socket) while nothing else happens, and the clock stops
/// when a consumer of the chat session's typed changes (as the terminal is) wakes with the transcript
/// changed: it draws in that pass (nothing polls), so this is the event-to-screen latency less the drawing.
enum EventLatencyBenchmark {
    @MainActor
    static func run(_ report: Report, settings: Settings) async throws {
        try await Harness.withGateway(protocolNumber: 4, v4Deltas: .withoutMessage) { gateway in
            let chat = try await Harness.startedChat(on: gateway)
            defer { Task { await chat.stop() } }
            let runId = "latency-run"
            var samples = Samples()
            var changes = chat.changes(of: .transcript).makeAsyncIterator()
            let rounds = 200
            for index in 0..<(rounds + 20) {
                let payload: JSONValue = [
                    "runId": .string(runId), "sessionKey": .string(Fixtures.sessionKey), "seq": .int(index + 1),
                    "state": "delta", "deltaText": .string("word\(index) "),
                ]
                let frame = FrameCodec.text(EventFrame(event: GatewayEventName.chat, payload: payload))
                let sent = ContinuousClock.now
                await gateway.sendRaw(frame)
                guard await changes.next() != nil else {
                    throw BenchmarkError.wrongResult("delta \(index) never reached the chat session")
                }
                let at = ContinuousClock.now
                if index >= 20 { samples.append(at - sent) }
                try await Task.sleep(for: .milliseconds(2))
            }
            report.addLatency(
                "2b", "one delta, gateway write → change received (render pass begins)", samples,
                goal: .atMost(1, "ms"),
                note: "in process, loopback socket, nothing else happening; the screen draws in that pass")
        }
    }
}
