import Foundation
import OpenClawTestGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test gateway in a process of its own (this binary again), so that a figure of the client's CPU
/// and context switches is the client's alone: in process, every request's cost included the gateway's
/// (Hummingbird, the hub, its JSON), which the goals are not about.
struct GatewayChild {
    static let flag = "--gateway-child"

    let url: String
    private let pid: pid_t
    private let stdin: Int32

    /// The child: a protocol 4 test gateway on an ephemeral port, its URL on stdout, stopped when its
    /// stdin closes (the parent went, or is done).
    @MainActor
    static func child() async -> Int32 {
        do {
            try await Harness.withGateway(protocolNumber: 4) { gateway in
                Output.line("url=\(gateway.url)")
                await Task.detached {
                    var byte: UInt8 = 0
                    while read(0, &byte, 1) > 0 {}
                }.value
            }
            return 0
        } catch {
            Output.line("error=\(error)")
            return 1
        }
    }

    /// Starts the child and waits for its URL.
    static func start() throws -> GatewayChild {
        var output: [Int32] = [0, 0]
        var input: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&input) == 0 else { throw BenchmarkError.setup("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let executable = CommandLine.arguments[0]
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(Self.flag), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw BenchmarkError.setup("could not start the gateway process")
        }
        // One line: the URL (or the error). The rest of its output is not read: it writes nothing more.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(output[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        close(output[0])
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("url=") else {
            close(input[1])
            throw BenchmarkError.setup("the gateway process said: \(text)")
        }
        return GatewayChild(url: String(text.dropFirst(4)), pid: pid, stdin: input[1])
    }

    /// Closes its stdin and waits for it to stop.
    func stop() {
        close(stdin)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}
