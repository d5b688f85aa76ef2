import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of another program, timed from just before `posix_spawn` to its exit, with the CPU time it
/// used (`wait4`'s resource usage: the child alone, every thread). Stdin is given text or `/dev/null`;
/// stdout is collected (stderr is dropped).
struct ChildProcess {
    struct Outcome {
        var status: Int32
        /// Just before the spawn.
        var started: ContinuousClock.Instant
        var wall: Duration
        var cpu: Duration
        var contextSwitches: Int
        var stdout: String
        /// When `until` first appeared in stdout, measured from the spawn; nil if it never did.
        var markerSeen: Duration?
    }

    enum Failure: Error, CustomStringConvertible {
        case spawn(Int32)
        case timedOut(String)
        var description: String {
            switch self {
            case .spawn(let code): "posix_spawn failed (\(String(cString: strerror(code))))"
            case .timedOut(let what): "\(what) did not finish in time"
            }
        }
    }

    let executable: String

    /// A started child: its pid, the write end of its stdin and the read end of its stdout.
    struct Spawned {
        var pid: pid_t
        var stdin: Int32
        var stdout: Int32
        /// Just before the spawn.
        var started: ContinuousClock.Instant
    }

    /// Starts the program with pipes on its stdin and stdout (stderr goes to /dev/null), `NO_COLOR` set.
    func spawn(_ arguments: [String], environment: [String: String] = [:]) throws -> Spawned {
        var output: [Int32] = [0, 0]
        var input: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&input) == 0 else { throw Failure.spawn(errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }

        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = "1"
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let started = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw Failure.spawn(spawned)
        }
        return Spawned(pid: pid, stdin: input[1], stdout: output[0], started: started)
    }

    /// Runs to its exit; with `until`, the child is stopped (SIGTERM) once its stdout shows that text.
    func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, until marker: String? = nil,
        timeout: Duration = .seconds(120)
    ) throws -> Outcome {
        let child = try spawn(arguments, environment: environment)
        let clock = ContinuousClock()
        let start = child.started
        let pid = child.pid
        if let stdin {
            var bytes = Array(stdin.utf8)
            _ = bytes.withUnsafeMutableBytes { write(child.stdin, $0.baseAddress, $0.count) }
        }
        close(child.stdin)

        var collected: [UInt8] = []
        var markerSeen: Duration?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = start + timeout
        while true {
            var poller = pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)
            let left = deadline - clock.now
            guard left > .zero else {
                kill(pid, SIGKILL)
                close(child.stdout)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                throw Failure.timedOut(executable + " " + arguments.joined(separator: " "))
            }
            guard poll(&poller, 1, Int32(min(1000, max(1, left.milliseconds)))) >= 0 || errno == EINTR else { break }
            guard poller.revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(child.stdout, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            collected.append(contentsOf: buffer[0..<count])
            if let marker, markerSeen == nil, String(decoding: collected, as: UTF8.self).contains(marker) {
                markerSeen = clock.now - start
                kill(pid, SIGTERM)
            }
        }
        close(child.stdout)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let wall = clock.now - start
        let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
        let system = Duration.seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
        return Outcome(
            status: Self.exitStatus(status), started: start, wall: wall, cpu: user + system,
            contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw, stdout: String(decoding: collected, as: UTF8.self),
            markerSeen: markerSeen)
    }

    /// The exit code, or 128 + the signal that ended it.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
