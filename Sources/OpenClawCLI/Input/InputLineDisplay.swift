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

/// The input line at the bottom of the terminal, kept apart from everything else printed.
///
/// Output (a streaming reply, a reconnect notice) and typing happen at the same time. Every write to the
/// terminal goes through here while the line editor is on (``Terminal/writeAll(_:to:)``): the input line
/// is erased, the output written, and the line drawn again under it. The display follows the output's
/// open row (what was written since the last line feed): a *live* row — one begun with `CR ESC[2K`,
/// a progress line or the streaming reply's last row — is redrawn in place by its writer, so the input
/// line goes on the row below it, and output from anywhere else (a command's answer, an echo, a notice)
/// goes above it, with the live row drawn again under that output: never glued to it. Below an open row
/// that is not live (plain text streaming mid-line) nothing is drawn: what is typed is kept and shown
/// when the line ends. The input line is laid out in cells and may take several rows
/// (``InputLineLayout``); erasing it goes back up as many. One per process, as the terminal is.
///
/// A terminal that reflows (``TerminalReflow``) re-wraps those rows when its window narrows, so they may
/// take more rows than were drawn: there the erase counts the rows at the width the window has now
/// (``LiveRegionGeometry``).
final class InputLineDisplay: Sendable {
    static let shared = InputLineDisplay()

    private struct State {
        var active = false
        var prompt = "› "
        var promptWidth = 2
        var editor = LineEditor()
        /// Where the input line is drawn now, nil when it is not.
        var shown: Shown?
        /// The output's open row as written (styles included), since its last line feed.
        var openRow = ""
        /// Whether ``openRow`` began with `CR ESC[2K`: its writer redraws it in place.
        var openRowIsLive = false
        /// While `$EDITOR` has the terminal: output waits here.
        var paused = false
        var held: [(String, Int32)] = []
        var columns = 80
        var rows = 24
        /// The status row under the input line, nil for none.
        var status: StatusRow?
        var reflow = TerminalReflow.detect(environment: ProcessInfo.processInfo.environment)
    }

    /// The drawn input line: how far up its first row is from the cursor, whether it sits under a live
    /// row, and the region's rows as drawn (live row, input line, status row) for a terminal that reflows.
    private struct Shown {
        var cursorRow: Int
        var belowLiveRow: Bool
        var region: LiveRegionGeometry
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
            $0.openRow = ""
            $0.openRowIsLive = false
            Self.readSize(&$0)
            draw(&$0)
        }
    }

    /// Erases the line and stops intercepting (on the way out).
    func deactivate() {
        state.withLock {
            Self.rawWrite(erase(&$0), to: STDOUT_FILENO)
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
            Self.rawWrite(erase(&$0), to: STDOUT_FILENO)
            draw(&$0)
        }
    }

    /// A line was submitted: the input line starts afresh. The chat echoes what was submitted where it
    /// belongs (``echo(_:)``): at once, or over the reply it waits for.
    func submitted(editor: LineEditor) {
        update(editor)
    }

    /// What was submitted as the transcript shows it: after the prompt, its further lines indented.
    func echo(_ text: String) -> String {
        let (prompt, indent) = state.withLock { ($0.prompt, String(repeating: " ", count: $0.promptWidth)) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            TerminalText.escapedLine(String($0))
        }
        return prompt + lines.joined(separator: "\n" + indent) + "\n"
    }

    /// Ctrl-L: the screen cleared, the live row (if any) and the input line drawn again at the top.
    func clearScreen() {
        state.withLock {
            $0.shown = nil
            Self.rawWrite("\u{1B}[H\u{1B}[2J" + $0.openRow, to: STDOUT_FILENO)
            draw(&$0)
        }
    }

    /// The one-row status under the input line (gateway, session, model …): drawn with the line and
    /// erased with it, so output never lands on it; redrawn only when its text changes.
    func setStatus(_ status: StatusRow?) {
        state.withLock {
            guard $0.status != status else { return }
            let erased = erase(&$0)
            $0.status = status
            Self.rawWrite(erased, to: STDOUT_FILENO)
            draw(&$0)
        }
    }

    /// Draws the line again if it is not shown (the prompt after a reply).
    func refresh() {
        state.withLock { draw(&$0) }
    }

    /// The window changed size (SIGWINCH): the input line is erased as it was laid out, the live row cut
    /// to the new width (a longer one would wrap, and its writer's `CR ESC[2K` would then clear only its
    /// last row), and the line laid out again for the new width.
    func resized() {
        state.withLock {
            var out = erase(&$0)
            Self.readSize(&$0)
            if $0.openRowIsLive, !$0.openRow.isEmpty {
                $0.openRow = StyledCells.clip($0.openRow, to: $0.columns)
                out += "\r\u{1B}[2K" + Self.unwrapped($0.openRow)
            }
            Self.rawWrite(out, to: STDOUT_FILENO)
            draw(&$0)
        }
    }

    /// The terminal's width now, as the display last read it.
    var columns: Int { state.withLock { $0.columns } }

    /// `$EDITOR` takes the terminal: the line is erased and output held until ``resume()``.
    func pause() {
        state.withLock {
            Self.rawWrite(erase(&$0), to: STDOUT_FILENO)
            $0.paused = true
        }
    }

    func resume() {
        state.withLock {
            $0.paused = false
            Self.readSize(&$0)
            let held = $0.held
            $0.held = []
            for (text, descriptor) in held { write(text, to: descriptor, &$0) }
            draw(&$0)
        }
    }

    private func write(_ text: String, to descriptor: Int32, _ state: inout State) {
        guard !text.isEmpty else { return }
        let erased = erase(&state)
        if state.openRowIsLive, !state.openRow.isEmpty, !text.hasPrefix("\r") {
            // Not the live row's writer: the output goes above the live row, which is drawn again under it.
            let live = state.openRow
            Self.rawWrite(erased + "\r\u{1B}[2K", to: STDOUT_FILENO)
            Self.rawWrite(text, to: descriptor)
            state.openRow = ""
            state.openRowIsLive = false
            follow(text, &state)
            if state.openRow.isEmpty {
                Self.rawWrite(live, to: STDOUT_FILENO)
                state.openRow = live
                state.openRowIsLive = true
            }
        } else {
            Self.rawWrite(erased, to: STDOUT_FILENO)
            let written = clippingLiveRow(text, &state)
            Self.rawWrite(Self.liveRowUnwrapped(written), to: descriptor)
            follow(written, &state)
        }
        draw(&state)
    }

    /// A live row wider than the terminal would wrap: cut to the width.
    private func clippingLiveRow(_ text: String, _ state: inout State) -> String {
        guard let start = Self.liveRowStart(in: text) else { return text }
        let row = String(text[start...])
        // The width now, not the one last read: see `erase`.
        let clipped = StyledCells.clip(row, to: min(state.columns, Self.windowSize().columns))
        return clipped.utf8.count == row.utf8.count ? text : String(text[..<start]) + clipped
    }

    /// `text` with auto-wrap off while its live row is written. The row is cut to the width read just
    /// before, but the window may narrow before the terminal reads it (the SIGWINCH still on its way):
    /// wrapped, it would take two rows and the next `CR ESC[2K` would clear only the second, leaving the
    /// first on the screen for good; cut, it stays one row.
    private static func liveRowUnwrapped(_ text: String) -> String {
        guard let start = liveRowStart(in: text) else { return text }
        return String(text[..<start]) + unwrapped(String(text[start...]))
    }

    /// Where `text` starts a live row (its last `CR ESC[2K`, with no newline after it); nil when it ends
    /// with none.
    private static func liveRowStart(in text: String) -> String.Index? {
        guard let range = text.lastRange(of: "\r\u{1B}[2K"), !text[range.upperBound...].contains("\n") else {
            return nil
        }
        return range.lowerBound
    }

    /// `row` written with auto-wrap off: cut at the right margin, never wrapped.
    private static func unwrapped(_ row: String) -> String {
        row.isEmpty ? row : "\u{1B}[?7l" + row + "\u{1B}[?7h"
    }

    /// Updates the open row from what was written.
    private func follow(_ text: String, _ state: inout State) {
        let marker = "\r\u{1B}[2K"
        var segment = Substring(text)
        if let newline = text.lastIndex(of: "\n") {
            segment = text[text.index(after: newline)...]
            state.openRow = ""
            state.openRowIsLive = false
        }
        if let live = segment.lastRange(of: marker) {
            state.openRow = String(segment[live.lowerBound...])
            state.openRowIsLive = true
        } else {
            state.openRow += segment
        }
        if state.openRow == marker {
            state.openRow = ""
            state.openRowIsLive = false
        }
    }

    /// The bytes that take the input line off the screen, leaving the cursor where the output left it.
    private func erase(_ state: inout State) -> String {
        guard let shown = state.shown else { return "" }
        state.shown = nil
        if state.reflow == .reflows {
            // The rows as the terminal has re-wrapped them for the width it has now (the SIGWINCH may not
            // be handled yet): up to the region's first row, the live row's when there is one, erased
            // from there and the live row drawn again, cut to that width.
            let columns = Self.windowSize().columns
            let out = Self.cursorUp(shown.region.rowsAboveCursor(columns: columns)) + "\r\u{1B}[J"
            return shown.belowLiveRow
                ? out + Self.unwrapped(StyledCells.clip(state.openRow, to: min(state.columns, columns))) : out
        }
        var out = Self.cursorUp(shown.cursorRow)
        out += "\r\u{1B}[J"
        if shown.belowLiveRow {
            // Back to the end of the live row (drawn again: its column is not known otherwise), cut to the
            // width the terminal has now: narrowed before its SIGWINCH is handled, a row drawn at the old
            // width would wrap, and the next `CR ESC[2K` would clear only its last part.
            out +=
                "\u{1B}[A"
                + Self.unwrapped(StyledCells.clip(state.openRow, to: min(state.columns, Self.windowSize().columns)))
        }
        return out
    }

    private func draw(_ state: inout State) {
        guard state.active, !state.paused, state.shown == nil else { return }
        let belowLive = !state.openRow.isEmpty
        guard !belowLive || state.openRowIsLive else { return }
        // The size now, not the one last read: drawn for a width the window no longer has (its SIGWINCH
        // not handled yet), the status row would wrap and the cursor end up a row lower than counted.
        Self.readSize(&state)
        // Ctrl-R's search says what it searches for where the prompt was.
        let searching = state.editor.searchPrompt.map { TerminalText.escapedLine($0) }
        let prompt = searching ?? state.prompt
        let layout = InputLineLayout(
            promptWidth: searching.map(DisplayWidth.of) ?? state.promptWidth, editor: state.editor,
            columns: state.columns, maxRows: max(1, state.rows / 2))
        var text = belowLive ? "\r\n" : "\r\u{1B}[2K"
        text += (layout.startsWithPrompt ? prompt : "") + layout.rows.joined(separator: "\r\n")
        var up = layout.rows.count - 1 - layout.cursorRow
        var lines = (belowLive ? [StyledCells.clip(state.openRow, to: state.columns)] : []) + layout.rows
        lines[belowLive ? 1 : 0] = (layout.startsWithPrompt ? prompt : "") + layout.rows[0]
        // The status row, when the window has room for it beside the output.
        if let status = state.status, state.rows >= 6 {
            // Auto-wrap off while it is written: a window narrowed since the size was read (its output
            // still unread by the terminal) cuts it instead of wrapping it, so it stays one row and the
            // cursor goes back up to where it is counted.
            let row = status.text(columns: state.columns)
            text += "\r\n" + Self.unwrapped(row)
            lines.append(row)
            up += 1
        }
        text += Self.cursorUp(up)
        text += "\r"
        if layout.cursorColumn > 0 { text += "\u{1B}[\(layout.cursorColumn)C" }
        Self.rawWrite(text, to: STDOUT_FILENO)
        let region = LiveRegionGeometry(
            lines: lines.map(StyledCells.plain), cursorLine: (belowLive ? 1 : 0) + layout.cursorRow,
            cursorColumn: layout.cursorColumn)
        state.shown = Shown(cursorRow: layout.cursorRow, belowLiveRow: belowLive, region: region)
    }

    /// `ESC[nA`, with `n` left out for one row (the shortest form).
    private static func cursorUp(_ rows: Int) -> String {
        rows > 1 ? "\u{1B}[\(rows)A" : rows == 1 ? "\u{1B}[A" : ""
    }

    private static func readSize(_ state: inout State) {
        let size = windowSize()
        state.columns = size.columns
        state.rows = size.rows
    }

    static func rawWrite(_ text: String, to descriptor: Int32) {
        guard !text.isEmpty else { return }
        Terminal.writeAllUnintercepted(text, to: descriptor)
    }

    /// The terminal's width, 80 when it cannot be known.
    static func columns() -> Int { windowSize().columns }

    /// The terminal's size, 80×24 when it cannot be known.
    static func windowSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (80, 24) }
        return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : 24)
    }
}
