/// How much each scenario does. The defaults are the sizes; `--quick` shrinks the repetitions
/// (not the sizes) for a smoke run.
struct Settings {
    var handshakes = 200
    var handshakeWarmup = 20
    var v4Deltas = 20_000
    var v3Deltas = 2_000
    var streamRuns = 5
    var healthRequests = 1_000
    var historyRequests = 200
    var historySessionMessages = 200
    var historyPageMessages = 1_000
    var decodeRuns = 30
    var storeAppendMessages = 10_000
    var storeRefreshes = 50
    var storeColdOpens = 20
    var searchMessages = 100_000
    var searchRounds = 10
    var memoryMessages = 10_000
    /// Timed runs of each `openclaw-chat` command in scenario 8.
    var programRuns = 20
    /// Scenario numbers to run; empty runs all.
    var only: Set<Int> = []
    /// Scenario 2's streams to run (`v4`, `v3`); empty runs both.
    var streams: Set<String> = []
    /// Scenario 3 with only the `health` requests against a gateway in another process (for profiling
    /// the client's request path alone).
    var healthAlone = false

    func runs(_ scenario: Int) -> Bool { only.isEmpty || only.contains(scenario) }

    static let usage = """
        usage: openclaw-benchmarks [--quick] [--only N[,N...]] [--stream v4|v3] [--health-alone]
          --quick    fewer repetitions (same sizes), for a smoke run
          --only     scenarios to run: 1 handshake, 2 event throughput, 3 round trips,
                     4 history decoding, 5 store, 6 memory,
                     7 attachments (peak memory sending a 20 MB file),
                     8 the program (openclaw-chat, release, whole process)
          --stream   scenario 2 with one stream only (for profiling)
          --health-alone
                     scenario 3's `health` against a gateway in another process only (for profiling)
          --network-executor
                     run Swift concurrency on the network's event loops, as openclaw-chat does
                     (NetworkThreads); by default the suite leaves it on Swift's pool, as an app does
        """

    /// Parses the command line; nil after printing usage for `--help` or an unknown argument.
    static func parse(_ arguments: [String]) -> Settings? {
        var settings = Settings()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--network-executor":
                break  // read in main, before anything runs
            case "--quick":
                settings.handshakes = 40
                settings.handshakeWarmup = 5
                settings.streamRuns = 2
                settings.healthRequests = 200
                settings.historyRequests = 40
                settings.decodeRuns = 8
                settings.storeRefreshes = 10
                settings.storeColdOpens = 5
                settings.searchRounds = 3
                settings.programRuns = 5
            case "--only":
                guard let list = remaining.popFirst() else { return nil }
                let numbers = list.split(separator: ",").compactMap { Int($0) }
                guard !numbers.isEmpty, numbers.allSatisfy((1...8).contains) else { return nil }
                settings.only.formUnion(numbers)
            case "--health-alone":
                settings.healthAlone = true
                settings.only.insert(3)
            case "--stream":
                guard let stream = remaining.popFirst(), ["v4", "v3"].contains(stream) else { return nil }
                settings.streams.insert(stream)
            default:
                return nil
            }
        }
        return settings
    }
}
