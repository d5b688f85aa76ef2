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

/// `/edit`: a long message written in `$VISUAL` or `$EDITOR` (`vi` when neither is set).
///
/// The terminal is handed over in its normal mode (the input line erased, other output held back until
/// the editor is closed) and taken back after. The file is private (0600, removed after) since a message
/// can hold anything.
enum ExternalEditor {
    /// The text written (without trailing line breaks), or nil when the editor failed or was not found.
    static func edit(raw saved: termios) -> String? {
        let display = InputLineDisplay.shared
        display.pause()
        var normal = saved
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &normal)
        InputLineDisplay.rawWrite(TerminalLineInput.bracketedPasteOff, to: STDOUT_FILENO)
        defer {
            var raw = RawTerminalMode.rawSettings(from: saved)
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            InputLineDisplay.rawWrite(TerminalLineInput.bracketedPasteOn, to: STDOUT_FILENO)
            display.resume()
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openclaw-message-\(UUID().uuidString).md"
        ).path
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else { return failed("cannot create \(path)") }
        close(descriptor)
        defer { unlink(path) }

        let environment = ProcessEnvironment.current
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // Through the shell so an editor with arguments (`code --wait`) works; the path goes in as $1,
        // never parsed by the shell.
        switch TerminalChild.run("/bin/sh", arguments: ["-c", editor + " \"$1\"", "sh", path]) {
        case .failure(let reason): return failed("cannot start \(editor): \(reason)")
        case .success(.exited(0)): break
        case .success(.exited(let status)), .success(.signalled(let status)):
            return failed("\(editor) exited with status \(status)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return failed("cannot read \(path)") }
        var text = String(decoding: data, as: UTF8.self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if text.isEmpty { InputLineDisplay.rawWrite("(empty: nothing sent)\n", to: STDOUT_FILENO) }
        return text
    }

    private static func failed(_ reason: String) -> String? {
        InputLineDisplay.rawWrite("/edit: \(TerminalText.escapedLine(reason)); nothing sent\n", to: STDERR_FILENO)
        return nil
    }
}
