import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `openclaw-chat` executable as a person or a script would, and captures what it says.
struct CLIProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `openclaw-chat` built next to this test bundle (`OPENCLAW_CHAT_BINARY` overrides it);
    /// `.build/debug/openclaw-chat` of this package when the bundle's directory has none.
    static let binary: URL = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return ProductLocator.locate(
            "openclaw-chat",
            environment: ProcessInfo.processInfo.environment,
            candidatePaths: ProductLocator.runningTestPaths,
            isExecutable: { FileManager.default.isExecutableFile(atPath: $0) },
            fallback: root.appendingPathComponent(".build/debug/openclaw-chat")
        )
    }()

    /// Runs the program to its end (or `timeout`, then SIGTERM and SIGKILL) and returns its exit status
    /// (128 + N for a signal N) and what it wrote.
    ///
    /// Spawned by ``ChildSpawn``, as ``InteractiveProcess`` is, not with Foundation's `Process`: with the
    /// whole suite running in parallel (hundreds of descriptors opening and closing) `Process.run()`
    /// crashed in a `memcpy` inside Foundation, taking the test run down with it.
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(30)
    ) async throws -> Result {
        // Close-on-exec (`pipe2` is not imported), so no other child of this process inherits them;
        // `dup2` gives the child plain copies on 0, 1 and 2.
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        for index in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard pipe(&pair) == 0 else { throw POSIXError(.EMFILE) }
            for descriptor in pair { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            switch index {
            case 0: input = pair
            case 1: output = pair
            default: errors = pair
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        let pid: pid_t
        do {
            pid = try ChildSpawn.spawn(
                arguments, environment: ChildSpawn.environment(environment), actions: &actions, newSession: false)
        } catch {
            for descriptor in input + output + errors { close(descriptor) }
            throw error
        }
        for descriptor in [input[0], output[1], errors[1]] { close(descriptor) }

        // Blocking writes and reads get threads of their own: on the cooperative pool they would starve
        // the in-process gateway the subprocess talks to.
        let stdinBytes = Array((stdin ?? "").utf8)
        Thread { [writeEnd = input[1]] in
            // A child that exits without reading its input must not take the test runner down with
            // SIGPIPE: blocked on this thread, the write fails with EPIPE instead.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            writeAll(stdinBytes, to: writeEnd)
            close(writeEnd)
        }.start()
        async let stdoutBytes = readToEnd(output[0])
        async let stderrBytes = readToEnd(errors[0])

        let status = await waitForExit(pid, timeout: timeout)
        return Result(
            status: status,
            stdout: String(decoding: await stdoutBytes, as: UTF8.self),
            stderr: String(decoding: await stderrBytes, as: UTF8.self)
        )
    }

    /// Polls for the child's end; past `timeout` it is asked to stop (SIGTERM), then made to (SIGKILL).
    private static func waitForExit(_ pid: pid_t, timeout: Duration) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        var signalled: Int32?
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return ChildSpawn.decode(status) }
            if result < 0, errno != EINTR { return -1 }
            if ContinuousClock.now > deadline, signalled != SIGKILL {
                let next = signalled == nil ? SIGTERM : SIGKILL
                _ = kill(pid, next)
                signalled = next
            }
            try? await Task.sleep(for: .milliseconds(signalled == nil ? 20 : 200))
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func readToEnd(_ descriptor: Int32) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread {
                var collected: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    collected.append(contentsOf: buffer[0..<count])
                }
                close(descriptor)
                continuation.resume(returning: collected)
            }.start()
        }
    }

    static func temporaryStateDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("openclaw-cli-\(UUID().uuidString)").path
    }
}
