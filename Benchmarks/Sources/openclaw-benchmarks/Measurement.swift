import CMallocInfo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durations of repeated runs of one operation, and the statistics the report prints.
struct Samples {
    private(set) var durations: [Duration] = []

    init() {}

    init(_ durations: [Duration]) {
        self.durations = durations
    }

    mutating func append(_ duration: Duration) { durations.append(duration) }

    var count: Int { durations.count }

    /// The nearest-rank percentile (`fraction` in 0...1) of the samples.
    func percentile(_ fraction: Double) -> Duration {
        guard !durations.isEmpty else { return .zero }
        let sorted = durations.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    var median: Duration { percentile(0.5) }
    var p99: Duration { percentile(0.99) }
}

extension Duration {
    var seconds: Double {
        let (whole, atto) = components
        return Double(whole) + Double(atto) / 1e18
    }

    var milliseconds: Double { seconds * 1e3 }
}

/// Runs `body` `warmup + iterations` times and keeps the timings of the last `iterations`.
@MainActor
func measure(
    iterations: Int, warmup: Int, _ body: () async throws -> Void
) async rethrows -> Samples {
    let clock = ContinuousClock()
    var samples = Samples()
    for index in 0..<(warmup + iterations) {
        let start = clock.now
        try await body()
        let elapsed = clock.now - start
        if index >= warmup { samples.append(elapsed) }
    }
    return samples
}

/// Synchronous variant of ``measure(iterations:warmup:_:)``, for in-process paths.
func measureSync(iterations: Int, warmup: Int, _ body: () throws -> Void) rethrows -> Samples {
    let clock = ContinuousClock()
    var samples = Samples()
    for index in 0..<(warmup + iterations) {
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        if index >= warmup { samples.append(elapsed) }
    }
    return samples
}

/// CPU time and context switches of the whole process (every thread), from `getrusage`.
struct ProcessUsage {
    var cpu: Duration
    var contextSwitches: Int

    static func now() -> ProcessUsage {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
        let system = Duration.seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
        return ProcessUsage(cpu: user + system, contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw)
    }

    static func - (lhs: ProcessUsage, rhs: ProcessUsage) -> ProcessUsage {
        ProcessUsage(cpu: lhs.cpu - rhs.cpu, contextSwitches: lhs.contextSwitches - rhs.contextSwitches)
    }
}

/// The process's memory as the kernel and the allocator see it (Linux).
enum ProcessMemory {
    /// Resident set size (`VmRSS` in `/proc/self/status`), in bytes; nil where there is no procfs.
    static func residentBytes() -> Int? { statusBytes("VmRSS:") }

    /// The largest resident set size this process has had (`VmHWM`), in bytes.
    static func peakResidentBytes() -> Int? { statusBytes("VmHWM:") }

    /// A `kB` line of `/proc/self/status`, in bytes.
    private static func statusBytes(_ field: String) -> Int? {
        guard let status = readFile("/proc/self/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.dropFirst(field.count).filter(\.isNumber)).map { $0 * 1024 }
        }
        return nil
    }

    /// Bytes the allocator has handed out and not yet got back (glibc `mallinfo2().uordblks` plus
    /// mmapped blocks): live heap, independent of what freed memory the allocator keeps cached.
    static func heapInUseBytes() -> Int? {
        let bytes = cmallocinfo_heap_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }

    /// Gives freed heap memory back to the kernel, so that RSS reflects live data.
    static func releaseFreedMemory() {
        cmallocinfo_release_free_memory()
    }

    private static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
