#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files an `/attach` line names, as people type them and as terminals paste a dropped file.
///
/// Dropping files on a terminal writes their paths the way that terminal quotes them: backslash-escaped
/// (`My\ Photo.png`, macOS Terminal and iTerm2), single-quoted (`'My Photo.png'`, GNOME Terminal and
/// Konsole), or as `file://` URLs, several separated by spaces. A line that is itself the path of an
/// existing file is taken whole first, so an unquoted name with spaces keeps working.
struct AttachPaths: Equatable {
    /// The paths, `~` expanded, in the order given.
    let paths: [String]

    /// Nil when a quote is left open (the line says so rather than guessing).
    init?(_ argument: String, home: String = HomeDirectory.path, exists: (String) -> Bool = Self.isFile) {
        let whole = Self.expandingTilde(argument, home: home)
        if exists(whole) {
            paths = [whole]
            return
        }
        guard let words = Self.words(argument) else { return nil }
        paths = words.map { word in
            if word.text.hasPrefix("file://"), let url = URL(string: word.text), url.isFileURL { return url.path }
            return word.startsQuoted ? word.text : Self.expandingTilde(word.text, home: home)
        }
    }

    static func isFile(_ path: String) -> Bool {
        FileSystemEntry(atPath: path) == .file
    }

    private static func expandingTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    /// A word and whether it began with a quote (a quoted `~` is a name, not the home directory).
    private struct Word {
        var text = ""
        var startsQuoted = false

        func appending(_ character: Character) -> Word {
            var word = self
            word.text.append(character)
            return word
        }
    }

    /// The line split as a POSIX shell splits words: quotes group, a backslash keeps the next character.
    private static func words(_ line: String) -> [Word]? {
        var words: [Word] = []
        var current: Word?
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current = (current ?? Word()).appending(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("\"", "\\"), (nil, "\\"):
                escaped = true
            case (nil, "'"), (nil, "\""):
                quote = character
                if current == nil { current = Word() }
                if current?.text.isEmpty == true { current?.startsQuoted = true }
            case (nil, _) where character.isWhitespace:
                if let word = current { words.append(word) }
                current = nil
            default:
                current = (current ?? Word()).appending(character)
            }
        }
        guard quote == nil, !escaped else { return nil }
        if let word = current { words.append(word) }
        return words.filter { !$0.text.isEmpty }
    }
}
