#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program that takes over the terminal until it ends (the `/edit` editor): it inherits stdin, stdout
/// and stderr and this process's environment, and this process waits for it.
///
/// `posix_spawn` rather than Foundation's `Process`, which needs corelibs Foundation. The child gets an
/// empty signal mask and the default action for the signals a person sends from the keyboard, whatever
/// this program set up for itself.
enum TerminalChild {
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// How it ended, or the reason it could not start (`strerror`'s words).
    static func run(_ path: String, arguments: [String]) -> Result<Ending, Failure> {
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t?
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGTSTP] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, nil, &attributes, argv, envp)
        guard started == 0 else { return .failure(Failure(String(cString: strerror(started)))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(Failure(String(cString: strerror(errno)))) }
        }
        let signal = status & 0x7F
        return .success(signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
