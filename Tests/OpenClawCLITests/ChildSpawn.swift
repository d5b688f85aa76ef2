import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starting `openclaw-chat` the way every subprocess test does: `posix_spawn` (Foundation's `Process`
/// crashed under the parallel suite), an environment without the user's gateway settings, default
/// signal actions and an empty signal mask whatever the test runner has, and no descriptor of the test
/// process inherited (an in-process gateway's listening socket would keep its port bound).
enum ChildSpawn {
    /// The test runner's environment without the variables that would point the program elsewhere, with
    /// colours off, and `extra` on top.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in [
            "OPENCLAW_GATEWAY_URL", "OPENCLAW_GATEWAY_TOKEN", "OPENCLAW_GATEWAY_PASSWORD", "OPENCLAW_STATE_DIR",
            "OPENCLAW_GATEWAY_PORT",
        ] {
            env.removeValue(forKey: key)
        }
        env["NO_COLOR"] = "1"
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Spawns the program with `arguments`; `actions` has already set up descriptors 0, 1 and 2.
    /// `newSession` makes it a session leader (so a terminal opened after can become its controlling one).
    static func spawn(
        _ arguments: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t,
        newSession: Bool
    ) throws -> pid_t {
        PseudoTerminal.closeFrom(3, in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        let setsid: Int32 = newSession ? 0x80 : 0  // POSIX_SPAWN_SETSID (glibc ≥ 2.26)
        posix_spawnattr_setflags(
            &attributes, Int16(setsid | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)))

        let path = CLIProcess.binary.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        return pid
    }

    /// An exit status as the tests compare it: the code, or 128 + N for a signal N.
    static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
