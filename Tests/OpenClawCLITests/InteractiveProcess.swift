import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `openclaw-chat` as a person drives it: under a pseudo-terminal that is its controlling terminal (so
/// Ctrl-C typed as `^C` reaches it as SIGINT from the line discipline, as in a real terminal), or with
/// plain pipes, as a script would. Input is written when the test decides; output is read as it comes.
final class InteractiveProcess: Sendable {
    enum Mode { case terminal, pipes }

    let pid: pid_t
    private let input: Int32
    private let outputFD: Int32
    private let captured = Mutex<[UInt8]>([])
    private let exitStatus = Mutex<Int32?>(nil)
    /// Set once the reading thread has met the end of the output: everything the program wrote is in
    /// `captured`. A wait gives up on an exited program only then (the reader can lag behind an exit).
    private let readerEnded = Mutex<Bool>(false)
    /// How far ``waitFor(_:timeout:)`` has read: each wait looks only at output after the last match.
    private let cursor = Mutex<Int>(0)
    /// The terminal's size at the start, nil for pipes or a terminal of no given size.
    let initialSize: WindowSize?
    /// Each size change, with how much output had been read when it happened (``screen()`` replays them).
    private let resizes = Mutex<[(offset: Int, size: WindowSize)]>([])
    /// Whether the emulated terminal re-wraps its rows on resize (``ScreenEmulator`` in reflow mode), the
    /// program told so by the environment a reflowing terminal (VTE) gives; otherwise xterm's.
    let reflows: Bool

    /// Variables by which the program tells which terminal it runs in: the test's own terminal must not
    /// leak into the one emulated.
    static let terminalIdentity = [
        "VTE_VERSION", "KITTY_WINDOW_ID", "WT_SESSION", "ALACRITTY_WINDOW_ID", "ALACRITTY_SOCKET", "ALACRITTY_LOG",
        "KONSOLE_VERSION", "WEZTERM_PANE", "GHOSTTY_RESOURCES_DIR", "ITERM_SESSION_ID", "TERM_PROGRAM", "TMUX", "STY",
        "XTERM_VERSION", "OPENCLAW_TERMINAL_REFLOW",
    ]

    /// A terminal window's size in cells.
    struct WindowSize: Sendable, Equatable {
        var columns: Int
        var rows: Int
    }

    init(
        _ arguments: [String], mode: Mode, environment: [String: String] = [:], size: WindowSize? = nil,
        reflows: Bool = false
    ) throws {
        initialSize = mode == .terminal ? size : nil
        self.reflows = reflows
        var env = ChildSpawn.environment([:])
        for name in Self.terminalIdentity { env.removeValue(forKey: name) }
        env[reflows ? "VTE_VERSION" : "XTERM_VERSION"] = reflows ? "7600" : "XTerm(390)"
        for (key, value) in environment { env[key] = value }
        if environment["TERM"] == nil { env["TERM"] = "xterm" }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        var toClose: [Int32] = []
        switch mode {
        case .terminal:
            let (master, slavePath) = try PseudoTerminal.open()
            if let size { Self.setSize(size, of: master) }
            posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            input = master
            outputFD = master
        case .pipes:
            var stdinPipe: [Int32] = [0, 0]
            var stdoutPipe: [Int32] = [0, 0]
            guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0 else { throw POSIXError(.EIO) }
            posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 2)
            input = stdinPipe[1]
            outputFD = stdoutPipe[0]
            toClose = [stdinPipe[0], stdoutPipe[1]]
        }

        // The pipes' and terminal's own descriptors go too, once duplicated (``ChildSpawn`` closes
        // everything from 3 up in the child).
        let child: pid_t
        do {
            child = try ChildSpawn.spawn(arguments, environment: env, actions: &actions, newSession: true)
        } catch {
            for descriptor in toClose { close(descriptor) }
            throw error
        }
        for descriptor in toClose { close(descriptor) }
        pid = child
        startReading()
    }

    private func startReading() {
        let descriptor = outputFD
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                // A terminal's master reports EIO once the child has gone.
                guard count > 0 else { break }
                captured.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            readerEnded.withLock { $0 = true }
        }
        thread.start()
    }

    /// Changes the terminal's size, as a person resizing the window does: the program gets SIGWINCH.
    /// With `asOfOutput`, the terminal took the new size when it had read only that much of the output:
    /// what the program wrote after, for the old size, reaches it resized (a real terminal's race,
    /// made certain).
    func resize(to size: WindowSize, asOfOutput offset: Int? = nil) {
        resizes.withLock { $0.append((offset ?? captured.withLock { $0.count }, size)) }
        Self.setSize(size, of: outputFD)
    }

    /// How many bytes of output have been read so far.
    var outputCount: Int { captured.withLock { $0.count } }

    private static func setSize(_ size: WindowSize, of master: Int32) {
        var window = winsize(ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &window)
    }

    /// What the terminal shows now: the output so far through ``ScreenEmulator``, each resize where it
    /// happened (as nearly as the reading thread can tell). With `resizesApplied`, what it showed just
    /// before that many resizes had happened, the next not applied.
    func screen(resizesApplied: Int? = nil) -> ScreenEmulator {
        let size = initialSize ?? WindowSize(columns: 80, rows: 24)
        var screen = ScreenEmulator(columns: size.columns, rows: size.rows, reflows: reflows)
        var bytes = captured.withLock { $0 }
        var resizes = self.resizes.withLock { $0 }
        if let resizesApplied, resizesApplied < resizes.count {
            bytes = Array(bytes.prefix(resizes[resizesApplied].offset))
            resizes = Array(resizes.prefix(resizesApplied))
        }
        var start = 0
        for (offset, size) in resizes {
            let end = min(offset, bytes.count)
            screen.feed(String(decoding: bytes[start..<end], as: UTF8.self))
            screen.resize(columns: size.columns, rows: size.rows)
            start = end
        }
        screen.feed(String(decoding: bytes[start...], as: UTF8.self))
        return screen
    }

    /// Waits until the screen satisfies `condition`; fails with the screen as it stands.
    func waitForScreen(
        _ what: String, timeout: Duration = .seconds(30), _ condition: (ScreenEmulator) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let drained = readerEnded.withLock { $0 }
            if condition(screen()) { return }
            if drained, hasExited { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw WaitFailure(expected: what, output: screen().description)
    }

    /// Everything the program wrote so far (stdout and stderr together).
    var output: String { String(decoding: captured.withLock { $0 }, as: UTF8.self) }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Foundation.write(input, $0.baseAddress.map { $0 + offset }, $0.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Types a line: Enter on a terminal is a carriage return.
    func type(_ line: String, mode: Mode) {
        write(line + (mode == .terminal ? "\r" : "\n"))
    }

    /// Ctrl-C: the terminal's interrupt character, or SIGINT itself where there is no terminal.
    func interrupt(mode: Mode) {
        switch mode {
        case .terminal: write("\u{03}")
        case .pipes: sendSignal(SIGINT)
        }
    }

    /// End of input: Ctrl-D on a terminal (at the start of a line), closing the pipe otherwise.
    func endInput(mode: Mode) {
        switch mode {
        case .terminal: write("\u{04}")
        case .pipes: close(input)
        }
    }

    /// Waits until `text` appears in the output after the previous match; fails with the output so far.
    func waitFor(_ text: String, timeout: Duration = .seconds(30)) async throws {
        try await waitForEach([text], timeout: timeout)
    }

    /// Waits until every one of `texts` appears after the previous match, in any order, for output whose
    /// order is not promised (a reconnect notice and a reply the catch-up brings race each other).
    func waitForEach(_ texts: [String], timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let drained = readerEnded.withLock { $0 }
            let bytes = captured.withLock { $0 }
            let start = cursor.withLock { $0 }
            let tail = String(decoding: bytes[min(start, bytes.count)...], as: UTF8.self)
            let ends = texts.compactMap { tail.range(of: $0)?.upperBound }
            if ends.count == texts.count, let last = ends.max() {
                cursor.withLock { $0 = start + tail[..<last].utf8.count }
                return
            }
            if drained, hasExited { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw WaitFailure(expected: texts.joined(separator: " and "), output: output)
    }

    private var hasExited: Bool {
        if exitStatus.withLock({ $0 }) != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return false }
        exitStatus.withLock { $0 = ChildSpawn.decode(status) }
        return true
    }

    /// The exit status (128 + N for a signal N); kills the program if it has not exited in time.
    func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while !hasExited {
            if ContinuousClock.now > deadline {
                sendSignal(SIGKILL)
                throw WaitFailure(expected: "exit", output: output)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Let the reader take what was written last (bounded: a child of the program may hold the output).
        let drainDeadline = ContinuousClock.now + .seconds(5)
        while !readerEnded.withLock({ $0 }), ContinuousClock.now < drainDeadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return exitStatus.withLock { $0 } ?? -1
    }

    /// Kills a program a failed test left running.
    func killIfRunning() {
        if !hasExited { sendSignal(SIGKILL) }
    }

    func sendSignal(_ number: Int32) {
        _ = kill(pid, number)
    }

    struct WaitFailure: Error, CustomStringConvertible {
        let expected: String
        let output: String
        var description: String { "waited for \(expected.debugDescription); output so far:\n\(output)" }
    }
}

/// `posix_openpt` and friends, which Swift's Glibc module does not import (they sit behind
/// `_XOPEN_SOURCE`): looked up in libc at run time.
enum PseudoTerminal {
    private typealias OpenPT = @convention(c) (Int32) -> Int32
    private typealias Grant = @convention(c) (Int32) -> Int32
    private typealias NameR = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static func open() throws -> (master: Int32, slavePath: String) {
        guard let openpt = symbol("posix_openpt", as: OpenPT.self), let grant = symbol("grantpt", as: Grant.self),
            let unlock = symbol("unlockpt", as: Grant.self), let nameR = symbol("ptsname_r", as: NameR.self)
        else { throw POSIXError(.ENOSYS) }
        let master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(.EIO) }
        var name = [CChar](repeating: 0, count: 128)
        guard grant(master) == 0, unlock(master) == 0, nameR(master, &name, name.count) == 0 else {
            close(master)
            throw POSIXError(.EIO)
        }
        return (master, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), also behind a feature macro.
    static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        guard let add = symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) else { return }
        _ = add(&actions, lowest)
    }

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let pointer = dlsym(handle, name) else { return nil }
        return unsafeBitCast(pointer, to: type)
    }
}
