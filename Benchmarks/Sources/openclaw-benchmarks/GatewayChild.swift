import Foundation
import OpenClawTestGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test gateway in a process of its own (this binary again), so that a figure of the client's CPU
/// and context switches is the client's alone: in process, every request's cost included the gateway's
/// (its server, the hub, its JSON), which the goals are not about.
struct GatewayChild {
    static let flag = "--gateway-child"

    let url: String
    private let pid: pid_t
    private let stdin: Int32
    private let stdout: Int32

    /// The child: a test gateway (protocol 4, or the one given) on an ephemeral port, its URL on stdout.
    /// Then it carries out the lines it reads (see ``send(_:)``) and stops when its stdin closes.
    @MainActor
    static func child(_ arguments: [String]) async -> Int32 {
        let protocolNumber = arguments.first.flatMap { Int($0) } ?? 4
        do {
            try await Harness.withGateway(protocolNumber: protocolNumber) { gateway in
                Output.line("url=\(gateway.url)")
                var prepared: (frames: [String], burst: Bool)?
                for await line in stdinLines() {
                    if line == "go", let run = prepared {
                        if run.burst {
                            try await gateway.sendRawBurst(run.frames)
                        } else {
                            await gateway.sendRaw(contentsOf: run.frames)
                        }
                        prepared = nil
                    } else {
                        prepared = prepare(line)
                        Output.line("ready")
                    }
                }
            }
            return 0
        } catch {
            Output.line("error=\(error)")
            return 1
        }
    }

    /// `v4 burst|frames DELTAS` or `v3 burst|frames DELTAS PIECES`: the fixture's run, built before the
    /// parent starts its clock, to be written to every connected client at `go`, all at once or frame by
    /// frame (see `ThroughputBenchmark.Writing`).
    private static func prepare(_ line: String) -> (frames: [String], burst: Bool)? {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 3, let deltas = Int(words[2]) else { return nil }
        let frames =
            words[0] == "v3"
            ? Fixtures.v3Frames(
                runId: "bench-v3", deltas: deltas, totalPieces: words.count > 3 ? Int(words[3]) ?? deltas : deltas)
            : Fixtures.v4Frames(runId: "bench-v4", deltas: deltas)
        return (frames, words[1] == "burst")
    }

    /// Lines from stdin, read on a thread of their own: a blocking read on an event loop would stall
    /// the gateway's sockets.
    private static func stdinLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = Swift.readLine() { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
    }

    /// Has the child build a run's frames (see `prepare`), and waits until it has.
    func prepare(_ command: String) {
        writeLine(command)
        _ = Self.readLine(from: stdout)
    }

    /// Has the child write the prepared frames.
    func go() { writeLine("go") }

    private func writeLine(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { write(stdin, $0.baseAddress, $0.count) }
    }

    private static func readLine(from descriptor: Int32) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }

    /// Starts the child and waits for its URL.
    static func start(protocolNumber: Int = 4) throws -> GatewayChild {
        let child = try ChildProcess(executable: CommandLine.arguments[0]).spawn([flag, String(protocolNumber)])
        // First the URL (or the error); then a `ready` for each prepared run.
        let text = readLine(from: child.stdout)
        guard text.hasPrefix("url=") else {
            close(child.stdin)
            close(child.stdout)
            throw BenchmarkError.setup("the gateway process said: \(text)")
        }
        return GatewayChild(url: String(text.dropFirst(4)), pid: child.pid, stdin: child.stdin, stdout: child.stdout)
    }

    /// Closes its stdin and waits for it to stop.
    func stop() {
        close(stdin)
        close(stdout)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}
