import OpenClawProtocol

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

/// Output to a terminal or a pipe: colour and cursor control only on a TTY and only when `NO_COLOR`
/// is not set; plain lines otherwise, so piped output stays clean for scripts.
struct Terminal: Sendable {
    let stdoutIsTTY: Bool
    let stderrIsTTY: Bool
    let colors: Bool
    /// Set by ``buffered(_:)``: standard output then goes out in large pieces.
    private var output: BufferedOutput?

    init(environment: [String: String] = ProcessEnvironment.current) {
        stdoutIsTTY = isatty(STDOUT_FILENO) == 1
        stderrIsTTY = isatty(STDERR_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colors = stdoutIsTTY && !noColor && environment["TERM"] != "dumb"
    }

    enum Style: String {
        case bold = "1"
        case dim = "2"
        case reverse = "7"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    func styled(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Writes to stdout without a newline: at once (streamed text), or into the pieces of ``buffered(_:)``.
    /// When the reader has gone (`| head`), the process ends quietly instead of crashing on the broken pipe.
    func write(_ text: String) {
        if let output {
            output.append(text)
        } else {
            Self.writeAll(text, to: STDOUT_FILENO)
        }
    }

    /// Runs `body` with a terminal whose standard output is collected and written in large pieces (see
    /// ``BufferedOutput``), the rest when `body` returns; for a command that prints many lines at once.
    /// Standard error is still written at once, so an error line written inside `body` comes before the
    /// output held; and what is held is lost if `body` ends the process (`exit`). Neither happens in the
    /// commands that use it: their errors come before the printing.
    func buffered<T>(_ body: (Terminal) throws -> T) rethrows -> T {
        var terminal = self
        let output = BufferedOutput()
        terminal.output = output
        defer { output.flush() }
        return try body(terminal)
    }

    func line(_ text: String = "") {
        write(text + "\n")
    }

    func errorLine(_ text: String) {
        Self.writeAll(text + "\n", to: STDERR_FILENO)
    }

    /// Every write to the terminal: while the line editor is on, around its input line
    /// (``InputLineDisplay``), so output and the line being typed never mix.
    static func writeAll(_ text: String, to descriptor: Int32) {
        let display = InputLineDisplay.shared
        if display.intercepts(descriptor) {
            display.output(text, to: descriptor)
        } else {
            writeAllUnintercepted(text, to: descriptor)
        }
    }

    static func writeAllUnintercepted(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                #else
                    Darwin.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                return
            }
            offset += written
        }
    }

    /// Broken pipes are handled where writes happen; the default signal would kill the process.
    static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// An error and what to do about it. Both may quote the gateway (its error text, a request id), so
    /// both are escaped (``TerminalText``).
    func error(_ message: String, hint: String?) {
        let prefix = stderrIsTTY && colors ? "\u{1B}[31merror:\u{1B}[0m " : "error: "
        errorLine(prefix + TerminalText.escaped(message))
        if let hint { errorLine("  → " + TerminalText.escaped(hint)) }
    }

    /// Replaces the current line (status indicator) on a TTY; does nothing when piped. The text (a tool's
    /// name and arguments) is escaped and kept on one row: cut to the width, since a status that wrapped
    /// would leave its first rows behind when the next one replaces it.
    func status(_ text: String) {
        guard stdoutIsTTY else { return }
        let columns = InputLineDisplay.columns()
        write("\r\u{1B}[2K" + styled(StyledCells.clip(TerminalText.escapedLine(text), to: columns - 1), .dim))
    }

    func clearStatus() {
        guard stdoutIsTTY else { return }
        write("\r\u{1B}[2K")
    }
}
