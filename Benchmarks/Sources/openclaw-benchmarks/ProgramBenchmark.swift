import Foundation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawStore
import OpenClawTestGateway

/// Scenario 8: `openclaw-chat` itself, a release build run as a person runs it, each figure for the
/// whole process: start-up, `send`, streaming a long reply, `history`, `search`, and opening a chat on a
/// long stored transcript. The binary is (re)built first with `swift build -c release --product
/// openclaw-chat`, so the figures are for the sources as they are.
@MainActor
enum ProgramBenchmark {
    /// The repository this file is in (four levels up: Benchmarks/Sources/openclaw-benchmarks/…).
    nonisolated static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static func run(_ report: Report, settings: Settings) async throws {
        let program = try build()
        try startUp(report, program: program, settings: settings)
        try binarySize(report, program: program)
        try await withGateway { gateway in
            try await send(report, program: program, gateway: gateway, settings: settings)
            try await idleChat(report, program: program, gateway: gateway)
        }
        try await withGateway(deltas: .withoutMessage) { gateway in
            try await streaming(report, program: program, gateway: gateway)
        }
        try await history(report, program: program, settings: settings)
        try await chatStart(report, program: program, settings: settings)
        try await search(report, program: program, settings: settings)
    }

    /// Builds the release binary (incremental: quick when it is up to date) and returns it.
    private static func build() throws -> ChildProcess {
        Output.line("  building openclaw-chat (release) …")
        let swift = ChildProcess(executable: "/usr/bin/env")
        let built = try swift.run(
            ["swift", "build", "-c", "release", "--product", "openclaw-chat", "--package-path", repository],
            timeout: .seconds(3600))
        guard built.status == 0 else { throw BenchmarkError.setup("swift build failed: \(built.stdout.suffix(2000))") }
        // The static build, where one was made, is brought up to date too: its figures must be this code's.
        if FileManager.default.fileExists(atPath: repository + "/.build-static") {
            Output.line("  building openclaw-chat (release, static, as the README installs it) …")
            let staticBuilt = try swift.run(["bash", repository + "/scripts/build-static.sh"], timeout: .seconds(3600))
            guard staticBuilt.status == 0 else {
                throw BenchmarkError.setup("the static build failed: \(staticBuilt.stdout.suffix(2000))")
            }
        }
        return ChildProcess(executable: repository + "/.build/release/openclaw-chat")
    }

    // MARK: Start-up

    /// A build the whole-process figures are measured on.
    struct MeasuredBuild {
        var label: String
        var program: ChildProcess
        /// The goals are read on this build's figures.
        var carriesGoal: Bool
        var note: String

        /// `note` after `first`, when there is one.
        func note(after first: String) -> String { note.isEmpty ? first : first + "; " + note }
    }

    /// The dynamic build, and the single static binary the README installs when `.build-static` has one:
    /// the goals are read on the installed build, the dynamic build's figures are printed beside them.
    static func builds(_ program: ChildProcess) -> [MeasuredBuild] {
        let path = repository + "/.build-static/release/openclaw-chat"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            return [
                MeasuredBuild(
                    label: "dynamic build", program: program, carriesGoal: true,
                    note: "no static build to measure (README: Install it as one file)")
            ]
        }
        return [
            MeasuredBuild(label: "dynamic build", program: program, carriesGoal: false, note: ""),
            MeasuredBuild(
                label: "static build", program: ChildProcess(executable: path), carriesGoal: true,
                note: "as the README installs it"),
        ]
    }

    private static func startUp(_ report: Report, program: ChildProcess, settings: Settings) throws {
        for build in builds(program) {
            let samples = try timings(runs: settings.programRuns * 3) { try build.program.run(["--help"]) }
            report.addLatency(
                "8", "openclaw-chat --help (start-up), \(build.label)", samples.wall,
                goal: build.carriesGoal ? .atMost(4, "ms") : nil, note: build.note)
        }
    }

    // MARK: send

    private static func send(
        _ report: Report, program: ChildProcess, gateway: TestGateway, settings: Settings
    )
        async throws
    {
        let state = try TemporaryDirectory(prefix: "openclaw-bench-send")
        defer { state.remove() }
        let arguments = ["send", "--url", gateway.url, "--token", "test-token", "--state-dir", state.path]
        for build in builds(program) {
            var toWire = Samples()
            var whole = Samples()
            for index in 0..<(settings.programRuns + 2) {
                let outcome = try build.program.run(arguments + ["hello \(index)"])
                guard outcome.status == 0, outcome.stdout.contains("You said") else {
                    throw BenchmarkError.wrongResult("send exited \(outcome.status): \(outcome.stdout.prefix(300))")
                }
                guard let arrival = await gateway.lastRequestArrival(method: "chat.send") else {
                    throw BenchmarkError.wrongResult("the gateway saw no chat.send")
                }
                if index >= 2 {
                    toWire.append(arrival - outcome.started)
                    whole.append(outcome.wall)
                }
            }
            report.addLatency(
                "8", "send: process start → chat.send on the wire, \(build.label)", toWire,
                goal: build.carriesGoal ? .atMost(10, "ms") : nil,
                note: build.note(after: "loopback test gateway, device already paired"))
            report.addLatency(
                "8", "send hello, whole process, \(build.label)", whole,
                note: "the reply streams at once (no pacing); includes the history page after the final")
        }
    }

    /// `send` of a v4 reply in N deltas (one delta per 6-character chunk, no throttle): the CPU the client
    /// spends per delta must not grow with the reply. The gateway sends `deltaText` only, as late gateways
    /// do: one that adds the cumulative `message` (and `text` in the agent event) to every delta makes each
    /// frame as long as the reply so far, and reading such a stream costs what its bytes cost.
    private static func streaming(_ report: Report, program: ChildProcess, gateway: TestGateway) async throws {
        let state = try TemporaryDirectory(prefix: "openclaw-bench-stream")
        defer { state.remove() }
        let arguments = ["send", "--url", gateway.url, "--token", "test-token", "--state-dir", state.path]
        // The baseline streams too (100 deltas): against a one-word reply, what a streamed reply costs once
        // (first use of the streaming paths) was charged to its deltas, most to the shortest reply's — 2,000
        // deltas read 19–22 µs a delta against 15–17 µs for 6,000 and 20,000, a cost falling with length,
        // not growing. Five runs each: the 2,000-delta figure is a small difference of two CPU times.
        let baselineDeltas = 100
        let baseline = try median(runs: 5) { try program.run(arguments + ["stream \(baselineDeltas)"]).cpu }
        var perEvent: [(Int, Double)] = []
        for deltas in [2_000, 6_000, 20_000] {
            let cpu = try median(runs: 5) {
                let outcome = try program.run(arguments + ["stream \(deltas)"])
                guard outcome.status == 0, outcome.stdout.utf8.count >= deltas * 6 else {
                    throw BenchmarkError.wrongResult("stream \(deltas): exit \(outcome.status)")
                }
                return outcome.cpu
            }
            let microseconds = max(0, (cpu - baseline).seconds) * 1e6 / Double(deltas - baselineDeltas)
            perEvent.append((deltas, microseconds))
            report.add(
                "8", "send streaming \(Format.grouped(deltas)) v4 deltas: client CPU per delta", microseconds, "µs",
                goal: deltas == 20_000 ? .atMost(24, "µs") : nil,
                note: "deltaText only; whole-process CPU minus a 100-delta reply's, median of 5")
        }
        let values = perEvent.map(\.1)
        if let low = values.min(), let high = values.max(), low > 0 {
            report.add(
                "8", "send streaming: CPU per delta, highest vs lowest of 2k, 6k, 20k", high / low, "×",
                goal: .atMost(1.2, "×"), note: "linear: no cost that grows with the reply's length")
        }
    }

    // MARK: history

    private static func history(_ report: Report, program: ChildProcess, settings: Settings) async throws {
        try await withGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            try await connection.connect()
            _ = try await RoundTripBenchmark.seed(
                client: ChatClient(connection: connection), gateway: gateway, messages: 1_000)
            await connection.disconnect()
            let state = try TemporaryDirectory(prefix: "openclaw-bench-history")
            defer { state.remove() }
            let arguments = ["history", "--url", gateway.url, "--token", "test-token", "--state-dir", state.path]
            let one = try timings(runs: settings.programRuns) { try program.run(arguments + ["--limit", "1"]) }
            let thousand = try timings(runs: settings.programRuns) { try program.run(arguments + ["--limit", "1000"]) }
            // CPU, not wall time: the wall includes the gateway (in this process) building the page, and
            // moves by milliseconds between runs on two cores.
            let perMessage = (thousand.cpu.median - one.cpu.median).seconds * 1e6 / 999
            report.add(
                "8", "history --limit 1000: client CPU per printed message", perMessage, "µs", goal: .atMost(8, "µs"),
                note: "whole process, (1000 − 1 message) / 999; 1 message: "
                    + "\(Format.number(one.cpu.median.milliseconds)) ms CPU, 1000: "
                    + "\(Format.number(thousand.cpu.median.milliseconds)) ms CPU")
            let perMessageWall = (thousand.wall.median - one.wall.median).seconds * 1e6 / 999
            report.add(
                "8", "history --limit 1000: wall time per printed message", perMessageWall, "µs",
                note: "includes the in-process gateway building the page")
        }
    }

    // MARK: chat start

    /// `chat` on a 10,000-message stored session with the gateway down: the time until the latest
    /// message is on screen.
    /// An interactive chat connected and waiting: how often its threads wake up while nothing happens
    /// (each wake-up is a voluntary context switch in `/proc/PID/task/*/status`). Stdin is a pipe here, as
    /// the suite has no terminal; the terminal's own reader waits the same way (no timeout), as the pty
    /// test `IdleWakeupsTests` checks.
    private static func idleChat(_ report: Report, program: ChildProcess, gateway: TestGateway) async throws {
        let state = try TemporaryDirectory(prefix: "openclaw-bench-idle")
        defer { state.remove() }
        let child = try program.spawn([
            "chat", "--url", gateway.url, "--token", "test-token", "--state-dir", state.path,
        ])
        defer {
            kill(child.pid, SIGKILL)
            close(child.stdin)
            close(child.stdout)
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
        }
        var seen = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(20)
        while !seen.contains("Type a message"), ContinuousClock.now < deadline {
            var poller = pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(child.stdout, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            seen += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        guard seen.contains("Type a message") else {
            throw BenchmarkError.wrongResult("the chat did not start: \(seen.suffix(300))")
        }
        try await Task.sleep(for: .seconds(1))
        guard let before = voluntarySwitches(of: child.pid) else {
            Output.line("  (idle wake-ups not measured: no /proc)")
            return
        }
        let window = 5.0
        try await Task.sleep(for: .seconds(window))
        guard let after = voluntarySwitches(of: child.pid) else { return }
        report.add(
            "8", "idle chat, wake-ups per second", Double(max(0, after - before)) / window, "/s",
            goal: .atMost(1, "/s"),
            note: "connected, nothing happening, \(Int(window)) s; all threads' voluntary context switches")
    }

    /// Voluntary context switches of every thread of `pid` so far, from `/proc` (a thread that ends
    /// takes its count with it, so a difference is floored at zero).
    private static func voluntarySwitches(of pid: pid_t) -> Int? {
        let directory = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var total = 0
        for thread in threads {
            guard let status = try? String(contentsOfFile: "\(directory)/\(thread)/status", encoding: .utf8) else {
                continue
            }
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }

    private static func chatStart(_ report: Report, program: ChildProcess, settings: Settings) async throws {
        let state = try TemporaryDirectory(prefix: "openclaw-bench-chat")
        defer { state.remove() }
        let url = "ws://127.0.0.1:9"  // discard: nothing listens, the connection is refused at once
        let messages = StoreBenchmark.storedMessages(count: 10_000, session: 0)
        do {
            let store = try SQLiteChatStore(path: state.path + "/transcripts.sqlite", logger: Harness.quietLogger)
            let gateway = try GatewayURL(parsing: url).storageIdentity
            for first in stride(from: 0, to: messages.count, by: 500) {
                try await store.record(
                    Array(messages[first..<min(messages.count, first + 500)]), gateway: gateway, sessionKey: "main")
            }
        }
        guard let last = messages.last(where: { $0.message.role == .user && !$0.message.text.isEmpty }) else {
            throw BenchmarkError.setup("no user message to look for")
        }
        let marker = String(last.message.text.prefix(24))
        let arguments = ["chat", "--url", url, "--token", "test-token", "--state-dir", state.path]
        var shown = Samples()
        for index in 0..<(settings.programRuns + 1) {
            let outcome = try program.run(arguments, stdin: "", until: marker)
            guard let seen = outcome.markerSeen else {
                throw BenchmarkError.wrongResult("the latest message was not shown: \(outcome.stdout.suffix(400))")
            }
            if index > 0 { shown.append(seen) }
        }
        report.addLatency(
            "8", "chat start, 10,000 stored messages → latest screen shown", shown, goal: .atMost(50, "ms"),
            note: "gateway down (refused); whole process from spawn")
    }

    // MARK: search

    private static func search(_ report: Report, program: ChildProcess, settings: Settings) async throws {
        let state = try TemporaryDirectory(prefix: "openclaw-bench-search")
        defer {
            // For profiling `search` by hand on the same store: OPENCLAW_BENCH_KEEP_SEARCH_STORE=1.
            if getenv("OPENCLAW_BENCH_KEEP_SEARCH_STORE") == nil { state.remove() }
        }
        try await StoreBenchmark.fillSearchStore(
            try SQLiteChatStore(path: state.path + "/transcripts.sqlite", logger: Harness.quietLogger),
            messages: settings.searchMessages)
        for (description, query, goal) in [
            ("a rare word", Fixtures.topic(421), 8.0), ("a phrase in every 4th message", "cache invalidation", 15.0),
        ] {
            for build in builds(program) {
                let samples = try timings(runs: settings.programRuns) {
                    try build.program.run(["search", "--all-gateways", "--state-dir", state.path, query])
                }
                guard samples.lastStatus == 0, !samples.lastOutput.isEmpty else {
                    throw BenchmarkError.wrongResult("search \"\(query)\" exited \(samples.lastStatus)")
                }
                report.addLatency(
                    "8",
                    "search over \(Format.grouped(settings.searchMessages)) messages, \(description), whole process, "
                        + build.label,
                    samples.wall, goal: build.carriesGoal ? .atMost(goal, "ms") : nil,
                    note: build.note(after: "\"\(query)\""))
            }
        }
    }

    // MARK: Helpers

    private struct Timings {
        var wall = Samples()
        /// The child's own CPU time (`wait4`), every thread.
        var cpu = Samples()
        var lastStatus: Int32 = 0
        var lastOutput = ""
    }

    /// `runs` timed runs after one untimed (page cache, first-run files).
    private static func timings(runs: Int, _ body: () throws -> ChildProcess.Outcome) throws -> Timings {
        var timings = Timings()
        for index in 0...runs {
            let outcome = try body()
            if index > 0 {
                timings.wall.append(outcome.wall)
                timings.cpu.append(outcome.cpu)
            }
            timings.lastStatus = outcome.status
            timings.lastOutput = outcome.stdout
        }
        return timings
    }

    private static func median(runs: Int, _ body: () throws -> Duration) throws -> Duration {
        var samples = Samples()
        for _ in 0..<runs { samples.append(try body()) }
        return samples.median
    }

    private static func withGateway(
        deltas: V4DeltaStyle = .withMessage, _ body: (TestGateway) async throws -> Void
    ) async throws {
        try await Harness.withGateway(protocolNumber: 4, agent: ScriptedAgent(chunkDelayMs: 0), v4Deltas: deltas) {
            try await body($0)
        }
    }
}
