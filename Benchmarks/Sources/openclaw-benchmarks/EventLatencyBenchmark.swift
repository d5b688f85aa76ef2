import Observation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Synchronization

/// Scenario 2b: how soon one event is where a screen can draw it. A single `chat` delta is written by the
/// gateway (in this process, over a loopback socket) while nothing else happens, and the clock stops
/// when the view model's transcript changes: the terminal and the app render in that same pass (they
/// observe the transcript; nothing polls), so this is the event-to-screen latency less the drawing.
enum EventLatencyBenchmark {
    @MainActor
    static func run(_ report: Report, settings: Settings) async throws {
        try await Harness.withGateway(protocolNumber: 4, v4Deltas: .withoutMessage) { gateway in
            let viewModel = try await Harness.startedViewModel(on: gateway)
            defer { Task { await viewModel.stop() } }
            let runId = "latency-run"
            var samples = Samples()
            let rounds = 200
            for index in 0..<(rounds + 20) {
                let payload: JSONValue = [
                    "runId": .string(runId), "sessionKey": .string(Fixtures.sessionKey), "seq": .int(index + 1),
                    "state": "delta", "deltaText": .string("word\(index) "),
                ]
                let frame = FrameCodec.text(EventFrame(event: GatewayEventName.chat, payload: payload))
                let changed = ChangeClock()
                withObservationTracking {
                    _ = viewModel.transcript
                } onChange: {
                    changed.mark()
                }
                let sent = ContinuousClock.now
                await gateway.sendRaw(frame)
                guard await waitUntil(timeout: .seconds(5), interval: .microseconds(50), { changed.at != nil }),
                    let at = changed.at
                else { throw BenchmarkError.wrongResult("delta \(index) never reached the view model") }
                if index >= 20 { samples.append(at - sent) }
                try await Task.sleep(for: .milliseconds(2))
            }
            report.addLatency(
                "2b", "one delta, gateway write → view model changed (render pass begins)", samples,
                goal: .atMost(1, "ms"),
                note: "in process, loopback socket, nothing else happening; the screen draws in that pass")
        }
    }
}

/// When the observed value last changed.
private final class ChangeClock: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)
    var at: ContinuousClock.Instant? { instant.withLock { $0 } }
    func mark() { instant.withLock { if $0 == nil { $0 = .now } } }
}
