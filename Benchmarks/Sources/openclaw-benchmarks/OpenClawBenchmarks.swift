import OpenClawGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The benchmark suite: every scenario of issue 7, one figure per line, then a table.
///
/// `swift run -c release --package-path Benchmarks openclaw-benchmarks [--quick] [--only 1,2]`
@main
@MainActor
enum OpenClawBenchmarks {
    static func main() async {
        // Swift's own thread pool by default, as in an app; openclaw-chat runs tasks on the event loops.
        if CommandLine.arguments.contains("--network-executor") {
            NetworkThreads.runConcurrencyOnEventLoops()
        }
        if CommandLine.arguments.dropFirst().first == GatewayChild.flag {
            exit(await GatewayChild.child(Array(CommandLine.arguments.dropFirst(2))))
        }
        if CommandLine.arguments.dropFirst().first == AttachmentBenchmark.childFlag {
            exit(await AttachmentBenchmark.child(Array(CommandLine.arguments.dropFirst(2))))
        }
        guard let settings = Settings.parse(Array(CommandLine.arguments.dropFirst())) else {
            Output.line(Settings.usage)
            exit(2)
        }
        #if DEBUG
            Output.line("warning: a debug build; the figures mean something only with -c release")
        #endif
        Output.line("OpenClaw client benchmarks — \(machineDescription())")
        let report = Report()
        if let wakeUp = WakeUpReference.roundTripMicroseconds() {
            report.add(
                "0", "machine: a thread wakes another and is woken back (pipes)", wakeUp, "µs",
                note: "the price of the wake-ups every round trip pays; the VM's, not the code's")
        }
        let clock = ContinuousClock()
        let start = clock.now
        var failures = 0
        // Memory first, while the heap is still small and clean; then in the order.
        let scenarios: [(Int, String, @MainActor () async throws -> Void)] = [
            (6, "memory", { try MemoryBenchmark.run(report, settings: settings) }),
            (1, "handshake", { try await HandshakeBenchmark.run(report, settings: settings) }),
            (
                2, "event throughput",
                {
                    try await ThroughputBenchmark.run(report, settings: settings)
                    try await EventLatencyBenchmark.run(report, settings: settings)
                }
            ),
            (3, "request round trips", { try await RoundTripBenchmark.run(report, settings: settings) }),
            (4, "history decoding", { try HistoryBenchmark.run(report, settings: settings) }),
            (5, "store", { try await StoreBenchmark.run(report, settings: settings, store: .sqlite()) }),
            (7, "attachments", { try await AttachmentBenchmark.run(report, settings: settings) }),
            (8, "the program", { try await ProgramBenchmark.run(report, settings: settings) }),
        ]
        for (number, name, body) in scenarios where settings.runs(number) {
            Output.line("\(number). \(name)")
            do {
                try await body()
            } catch {
                failures += 1
                Output.line("  [\(number)] FAILED: \(error)")
            }
        }
        report.printTable()
        Output.line("(\(Format.number((clock.now - start).seconds)) s)")
        if failures > 0 { exit(1) }
    }

    /// Cores and load, so a printed figure says what it was measured on.
    static func machineDescription() -> String {
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        var loads = [Double](repeating: 0, count: 3)
        let loadCount = getloadavg(&loads, 3)
        let load = loadCount > 0 ? "load average \(Format.fixed(loads[0], decimals: 2))" : "load unknown"
        return "\(cores) cores, \(load)"
    }
}
