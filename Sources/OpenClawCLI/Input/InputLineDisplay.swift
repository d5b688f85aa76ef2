import OpenClawProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The input line at the bottom of the terminal, kept apart from everything else printed.
///
/// Output (a streaming reply, a reconnect notice) and typing happen at the same time. Every write to the
/// terminal goes through here while the line editor is on (``Terminal/writeAll(_:to:)``): the input line
/// is erased, the output written, and the line drawn again once the output stands at the start of a line.
/// While a reply streams mid-line nothing is drawn: what is typed is kept and shown when the line ends,
/// never mixed into the reply. One per process, as the terminal is.
final class InputLineDisplay: Sendable {
    static let shared = InputLineDisplay()

    private struct State {
        var active = false
        var prompt = "› "
        var promptWidth = 2
        var editor = LineEditor()
        var shown = false
        var atLineStart = true
        /// While `$EDITOR` has the terminal: output waits here.
        var paused = false
        var held: [(String, Int32)] = []
    }

    private let state = Mutex(State())

    /// Whether writes to `descriptor` go through ``output(_:to:)``.
    func intercepts(_ descriptor: Int32) -> Bool {
        (descriptor == STDOUT_FILENO || descriptor == STDERR_FILENO) && state.withLock { $0.active }
    }

    func activate(prompt: String, promptWidth: Int) {
        state.withLock {
            $0.active = true
            $0.prompt = prompt
            $0.promptWidth = promptWidth
            $0.atLineStart = true
            draw(&$0)
        }
    }

    /// Erases the line and stops intercepting (on the way out).
    func deactivate() {
        state.withLock {
            if $0.shown { Self.rawWrite("\r\u{1B}[2K", to: STDOUT_FILENO) }
            $0.shown = false
            $0.active = false
        }
    }

    /// Writes program output around the input line.
    func output(_ text: String, to descriptor: Int32) {
        state.withLock {
            if $0.paused {
                $0.held.append((text, descriptor))
                return
            }
            write(text, to: descriptor, &$0)
        }
    }

    /// Shows `editor` as the input line (after each key).
    func update(_ editor: LineEditor) {
        state.withLock {
            $0.editor = editor
            draw(&$0)
        }
    }

    /// Leaves the submitted text on screen after the prompt, as a terminal's echo would, and starts a new
    /// input line below it.
    func submitted(_ text: String, editor: LineEditor) {
        state.withLock {
            $0.editor = editor
            guard $0.atLineStart else { return }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                TerminalText.escapedLine(String($0))
            }
            let indent = String(repeating: " ", count: $0.promptWidth)
            Self.rawWrite("\r\u{1B}[2K" + $0.prompt + lines.joined(separator: "\n" + indent) + "\n", to: STDOUT_FILENO)
            $0.shown = false
            draw(&$0)
        }
    }

    /// Draws the line again if it is not shown (the prompt after a reply).
    func refresh() {
        state.withLock { draw(&$0) }
    }

    /// `$EDITOR` takes the terminal: the line is erased and output held until ``resume()``.
    func pause() {
        state.withLock {
            if $0.shown { Self.rawWrite("\r\u{1B}[2K", to: STDOUT_FILENO) }
            $0.shown = false
            $0.paused = true
        }
    }

    func resume() {
        state.withLock {
            $0.paused = false
            let held = $0.held
            $0.held = []
            for (text, descriptor) in held { write(text, to: descriptor, &$0) }
            draw(&$0)
        }
    }

    private func write(_ text: String, to descriptor: Int32, _ state: inout State) {
        guard !text.isEmpty else { return }
        if state.shown {
            Self.rawWrite("\r\u{1B}[2K", to: STDOUT_FILENO)
            state.shown = false
        }
        Self.rawWrite(text, to: descriptor)
        state.atLineStart = text.hasSuffix("\n") || text.hasSuffix("\r\u{1B}[2K")
        draw(&state)
    }

    private func draw(_ state: inout State) {
        guard state.active, !state.paused, state.atLineStart else { return }
        let view = InputLineView(editor: state.editor, width: Self.columns() - state.promptWidth - 1)
        var text = "\r\u{1B}[2K" + state.prompt + view.visible + "\r"
        let column = state.promptWidth + view.cursorColumn
        if column > 0 { text += "\u{1B}[\(column)C" }
        Self.rawWrite(text, to: STDOUT_FILENO)
        state.shown = true
    }

    static func rawWrite(_ text: String, to descriptor: Int32) {
        Terminal.writeAllUnintercepted(text, to: descriptor)
    }

    /// The terminal's width, 80 when it cannot be known.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}

/// What of the line fits on one terminal row: line breaks shown as `↵`, control characters escaped, the
/// text scrolled sideways so the cursor stays in view.
struct InputLineView: Equatable {
    let visible: String
    /// Columns from the start of ``visible`` to the cursor.
    let cursorColumn: Int

    init(editor: LineEditor, width: Int) {
        let width = max(width, 8)
        let cells = editor.characters.map(Self.cell)
        let before = cells[..<editor.cursor].reduce(0) { $0 + $1.count }
        // Scroll so the cursor is inside the window, keeping a little context on its left.
        var start = 0
        var skipped = 0
        if before >= width {
            let target = before - width + 1
            while skipped < target, start < cells.count {
                skipped += cells[start].count
                start += 1
            }
        }
        var shown = ""
        var used = 0
        for cell in cells[start...] {
            guard used + cell.count <= width else { break }
            shown += cell
            used += cell.count
        }
        visible = shown
        cursorColumn = before - skipped
    }

    private static func cell(_ character: Character) -> String {
        switch character {
        case "\n": "↵"
        case "\t": " "
        default: TerminalText.escapedLine(String(character))
        }
    }
}
