import OpenClawChat
import OpenClawProtocol
import Synchronization

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

/// What the person did at the input line.
enum InputEvent: Equatable, Sendable {
    case line(String)
    /// Ctrl+C on an empty line (with text, Ctrl+C only clears it).
    case interrupt
    /// Esc: stop the running reply.
    case escape
    /// Ctrl+D on an empty line.
    case endOfInput
}

/// The line editor on a real terminal: raw mode, bracketed paste, keys read on a thread of their own (so
/// waiting for them never blocks a streaming reply), ``LineEditor`` deciding what each does and
/// ``InputLineDisplay`` drawing it. `/edit` opens `$EDITOR` from here, since it needs the terminal.
///
/// The terminal is restored on every way out: when the stream ends, when the reader stops, and at process
/// exit (a process that leaves its terminal raw leaves the shell without echo).
enum TerminalLineInput {
    /// The settings to put back at exit, while raw mode is on.
    private static let restoreAtExit = Mutex<(saved: termios?, registered: Bool)>((nil, false))
    static let bracketedPasteOn = "\u{1B}[?2004h"
    static let bracketedPasteOff = "\u{1B}[?2004l"

    /// Input events from the terminal; nil when stdin or stdout is not a terminal (then lines are read
    /// plainly, see ``LineReader``).
    static func events(
        prompt: String, history: InputHistory
    ) -> (events: AsyncStream<InputEvent>, stop: @Sendable () -> Void)? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, let raw = enterRawMode() else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: InputEvent.self)
        let stopped = StopFlag()
        // Stopping writes a byte here: the reader waits for keys without a timeout and still notices.
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            leaveRawMode(raw)
            return nil
        }
        let (wakeRead, wakeWrite) = (wake[0], wake[1])
        let display = InputLineDisplay.shared
        display.activate(prompt: prompt, promptWidth: 2)
        DetachedThread.start(stackSize: 1 << 20) {
            var editor = LineEditor(history: history.load())
            display.update(editor)
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 4096)
            reading: while !stopped.isSet {
                // No timeout while idle (``stop`` wakes it through the pipe); 50 ms only to tell a lone Esc
                // from the start of a sequence.
                guard waitForInput(wake: wakeRead, timeoutMs: decoder.isWaitingForMore ? 50 : -1) else {
                    if let key = decoder.flushPendingEscape() {
                        if case .stop = apply(key, to: &editor, continuation: continuation, history: history, raw: raw)
                        {
                            break reading
                        }
                    }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else {
                    continuation.yield(.endOfInput)
                    break
                }
                for key in decoder.decode(Array(buffer[0..<count])) {
                    if case .stop = apply(key, to: &editor, continuation: continuation, history: history, raw: raw) {
                        break reading
                    }
                }
            }
            display.deactivate()
            leaveRawMode(raw)
            continuation.finish()
            // The pipe stays open: `stop` may still write to it, and a closed number could be reused.
        }
        // Stopping restores the terminal at once: the process may end before the thread notices.
        return (
            stream,
            {
                stopped.set()
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
                display.deactivate()
                leaveRawMode(raw)
            }
        )
    }

    private enum Step { case go, stop }

    private static func apply(
        _ key: EditorKey, to editor: inout LineEditor, continuation: AsyncStream<InputEvent>.Continuation,
        history: InputHistory, raw: termios
    ) -> Step {
        let display = InputLineDisplay.shared
        if key == .interrupt, !editor.isEmpty, editor.search == nil {
            editor = LineEditor(history: editor.history, historyLimit: editor.historyLimit)
            display.update(editor)
            return .go
        }
        if key == .tab {
            let wasSearching = editor.search != nil
            _ = editor.handle(key)  // ends a history search, keeping its match
            if wasSearching { display.update(editor) }
            complete(&editor)
            return .go
        }
        switch editor.handle(key) {
        case .none: break
        case .redraw: display.update(editor)
        case .submit(let text):
            display.submitted(editor: editor)
            if text.trimming(.whitespaces) == "/edit" {
                if let written = ExternalEditor.edit(raw: raw), !written.isEmpty {
                    continuation.yield(.line(written))
                }
                return .go
            }
            history.save(editor.history)
            continuation.yield(.line(text))
        case .interrupt: continuation.yield(.interrupt)
        case .escape: continuation.yield(.escape)
        case .endOfInput:
            continuation.yield(.endOfInput)
            return .stop
        case .clearScreen:
            display.clearScreen()
        }
        return .go
    }

    /// Tab: the word completed in place, or the candidates listed above the line when Tab cannot choose.
    private static func complete(_ editor: inout LineEditor) {
        let display = InputLineDisplay.shared
        guard
            let completion = InputCompletion.complete(
                editor.characters, cursor: editor.cursor, sources: CompletionSources.shared.current)
        else { return }
        editor.apply(completion)
        display.update(editor)
        guard !completion.listed.isEmpty else { return }
        display.output(CompletionList.text(completion.listed, columns: display.columns), to: STDOUT_FILENO)
    }

    /// Whether stdin has bytes: false after `timeoutMs` (-1: none), or when `wake` was written to.
    private static func waitForInput(wake: Int32, timeoutMs: Int32) -> Bool {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, timeoutMs)
            if ready < 0, errno == EINTR { continue }
            return ready > 0 && descriptors[1].revents == 0 && descriptors[0].revents != 0
        }
    }

    /// Raw mode and bracketed paste on; the previous settings, to restore.
    static func enterRawMode() -> termios? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var settings = RawTerminalMode.rawSettings(from: saved)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return nil }
        let first = restoreAtExit.withLock { current in
            defer { current.saved = saved }
            return !current.registered
        }
        if first {
            restoreAtExit.withLock { $0.registered = true }
            atexit { TerminalLineInput.restoreTerminalAtExit() }
        }
        InputLineDisplay.rawWrite(bracketedPasteOn, to: STDOUT_FILENO)
        return saved
    }

    static func leaveRawMode(_ saved: termios) {
        var settings = saved
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        InputLineDisplay.rawWrite(bracketedPasteOff, to: STDOUT_FILENO)
        restoreAtExit.withLock { $0.saved = nil }
    }

    private static func restoreTerminalAtExit() {
        guard let saved = restoreAtExit.withLock({ $0.saved }) else { return }
        var settings = saved
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        InputLineDisplay.rawWrite(bracketedPasteOff, to: STDOUT_FILENO)
    }
}

/// Tells the reading thread to stop.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
