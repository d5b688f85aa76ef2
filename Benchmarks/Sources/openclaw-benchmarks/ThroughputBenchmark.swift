import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// Scenario 2: a long reply's `chat` deltas, decoded, dispatched and reduced — over a real socket into
/// the view model, and in process (text → frame → `ChatEvent` → `Transcript`) to compare.
enum ThroughputBenchmark {
    struct Stream {
        var label: String
        var protocolNumber: Int
        var runId: String
        var deltas: Int
        var replyBytes: Int
        /// The reply's pieces (v3 spreads them over its deltas).
        var pieces: Int
        var frames: [String]

        /// What the gateway process is told to write (see `GatewayChild`).
        func command(_ writing: Writing) -> String {
            let mode = writing == .burst ? "burst" : "frames"
            return protocolNumber == 3 ? "v3 \(mode) \(deltas) \(pieces)" : "v4 \(mode) \(deltas)"
        }

        var frameBytes: Int { frames.reduce(0) { $0 + $1.utf8.count } }
    }

    @MainActor
    static func run(_ report: Report, settings: Settings) async throws {
        if settings.streams.isEmpty || settings.streams.contains("v4") { try await runV4(report, settings: settings) }
        if settings.streams.isEmpty || settings.streams.contains("v3") { try await runV3(report, settings: settings) }
    }

    @MainActor
    private static func runV4(_ report: Report, settings: Settings) async throws {
        let v4 = Stream(
            label: "v4 deltaText", protocolNumber: 4, runId: "bench-v4", deltas: settings.v4Deltas,
            replyBytes: settings.v4Deltas * 52, pieces: settings.v4Deltas,
            frames: Fixtures.v4Frames(runId: "bench-v4", deltas: settings.v4Deltas))
        try await measure(v4, report: report, settings: settings, goal: .atLeast(300_000, "events/s"))
    }

    @MainActor
    private static func runV3(_ report: Report, settings: Settings) async throws {
        let pieces = settings.v4Deltas  // the same 1 MB reply, sent cumulatively
        let v3 = Stream(
            label: "v3 cumulative", protocolNumber: 3, runId: "bench-v3", deltas: settings.v3Deltas,
            replyBytes: pieces * 52, pieces: pieces,
            frames: Fixtures.v3Frames(runId: "bench-v3", deltas: settings.v3Deltas, totalPieces: pieces))
        try await measure(v3, report: report, settings: settings, goal: nil)
    }

    /// How the gateway writes the frames.
    enum Writing: String {
        /// The test gateway's own writer: one awaited write and flush per frame.
        case perFrame = "frame by frame"
        /// Straight to the channel, one flush per 64 KB: as fast as the client takes them.
        case burst = "burst"
    }

    @MainActor
    private static func measure(_ stream: Stream, report: Report, settings: Settings, goal: Goal?) async throws {
        let size =
            "\(Format.grouped(stream.deltas)) deltas, \(Format.number(Format.megabytes(stream.replyBytes))) MB reply, "
            + "\(Format.number(Format.megabytes(stream.frameBytes))) MB of frames"
        for writing in [Writing.perFrame, .burst] {
            var endToEnd = Samples()
            var usages: [ProcessUsage] = []
            for _ in 0..<settings.streamRuns {
                let (elapsed, usage) = try await overSocket(stream, writing: writing)
                endToEnd.append(elapsed)
                usages.append(usage)
            }
            let socketTime = endToEnd.median
            let cpu = usages.map(\.cpu).sorted()[usages.count / 2]
            let switches = usages.map(\.contextSwitches).sorted()[usages.count / 2]
            report.add(
                "2", "\(stream.label), gateway writes \(writing.rawValue) → view model",
                Double(stream.deltas) / socketTime.seconds, "events/s",
                goal: writing == .burst ? goal : nil,
                note: (writing == .perFrame ? size + "; " : "") + "median of \(endToEnd.count) runs; per delta, "
                    + "client (gateway in another process): \(Format.number(cpu.seconds * 1e6 / Double(stream.deltas))) µs CPU, "
                    + "\(Format.number(Double(switches) / Double(stream.deltas))) context switches")
            report.add(
                "2", "\(stream.label), gateway writes \(writing.rawValue) → view model, total", socketTime.milliseconds,
                "ms")
        }

        var withoutViewModel = Samples()
        for _ in 0..<settings.streamRuns {
            withoutViewModel.append(try await overSocketIntoTranscript(stream))
        }
        report.add(
            "2", "\(stream.label), gateway writes burst → Transcript off the main actor",
            Double(stream.deltas) / withoutViewModel.median.seconds, "events/s",
            note: "ChatClient events reduced in a plain task: the socket path without the view model")

        let inProcess = try measureSync(iterations: settings.streamRuns, warmup: 1) {
            try decodeAndReduce(stream)
        }
        let localTime = inProcess.median
        report.add(
            "2", "\(stream.label), in process (decode + reduce)", Double(stream.deltas) / localTime.seconds,
            "events/s", note: "median of \(inProcess.count) runs")
        report.add("2", "\(stream.label), in process, total", localTime.milliseconds, "ms")
    }

    /// The gateway, in a process of its own, writes the fixture's frames to a connected, started view
    /// model; the clock stops when the view model's transcript has applied the run's `final`. Its own
    /// process: what is measured (time and this process's CPU) is the client's, not the gateway's.
    @MainActor
    private static func overSocket(_ stream: Stream, writing: Writing) async throws -> (Duration, ProcessUsage) {
        let gateway = try GatewayChild.start(protocolNumber: stream.protocolNumber)
        defer { gateway.stop() }
        do {
            let chat = try await Harness.startedChat(url: gateway.url)
            gateway.prepare(stream.command(writing))
            let clock = ContinuousClock()
            let usageBefore = ProcessUsage.now()
            let start = clock.now
            gateway.go()
            let finished = await waitUntil(timeout: .seconds(300)) {
                chat.transcript.outcome(ofRun: stream.runId) != nil
            }
            let elapsed = clock.now - start
            let usage = ProcessUsage.now() - usageBefore
            let outcome = chat.transcript.outcome(ofRun: stream.runId)
            let alerts = chat.alerts
            await chat.stop()
            guard finished, outcome == .completed, alerts.isEmpty else {
                throw BenchmarkError.wrongResult("\(stream.label): outcome \(String(describing: outcome)), \(alerts)")
            }
            return (elapsed, usage)
        }
    }

    /// The same burst into a `Transcript` reduced by a task off the main actor, from `ChatClient` events.
    @MainActor
    private static func overSocketIntoTranscript(_ stream: Stream) async throws -> Duration {
        let gateway = try GatewayChild.start(protocolNumber: stream.protocolNumber)
        defer { gateway.stop() }
        do {
            let connection = try Harness.connection(url: gateway.url)
            try await connection.connect()
            let events = ChatClient(connection: connection).events()
            let runId = stream.runId
            let consumer = Task.detached { () -> Bool in
                var transcript = Transcript(sessionKey: "main")
                for await event in events {
                    if case .chat(let chat) = event {
                        transcript.apply(.chatEvent(chat))
                        if transcript.outcome(ofRun: runId) != nil { return true }
                    }
                }
                return false
            }
            gateway.prepare(stream.command(.burst))
            let clock = ContinuousClock()
            let start = clock.now
            gateway.go()
            let done = await consumer.value
            let elapsed = clock.now - start
            await connection.disconnect()
            guard done else { throw BenchmarkError.wrongResult("\(stream.label): the events ended before the final") }
            return elapsed
        }
    }

    /// Each frame as the connection and chat client handle it, without the socket.
    static func decodeAndReduce(_ stream: Stream) throws {
        let codec = FrameCodec()
        var transcript = Transcript(sessionKey: "main")
        for (index, text) in stream.frames.enumerated() {
            guard case .event(let frame) = try codec.decode(text), let event = ChatEvent(frame: frame) else {
                throw BenchmarkError.wrongResult("frame \(index) is not a chat event")
            }
            if index == stream.frames.count - 1, transcript.entries.last?.textUTF8Count != stream.replyBytes {
                throw BenchmarkError.wrongResult(
                    "\(stream.label): streamed \(transcript.entries.last?.textUTF8Count ?? 0) bytes")
            }
            transcript.apply(.chatEvent(event))
        }
        guard transcript.outcome(ofRun: stream.runId) == .completed else {
            throw BenchmarkError.wrongResult("\(stream.label): the run did not complete")
        }
    }
}
