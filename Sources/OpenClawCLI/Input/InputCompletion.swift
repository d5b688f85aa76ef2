import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What Tab does to the input line, decided without a terminal: the word before the cursor is completed
/// from what fits where it stands — a slash command at the start of the line, then a session key after
/// `/session`, a model after `/model`, a level after `/think`, a file after `/attach`.
///
/// As in a shell: one candidate replaces the word (a space after it, none after a directory); several
/// with a longer common start complete to that start; otherwise the candidates are listed and the line
/// stays as it is.
struct InputCompletion: Equatable {
    /// The characters of the line to replace (indices into the editor's characters) and by what.
    var replaced: Range<Int>
    var insertion: String
    /// Shown under the line when Tab could not decide: each candidate and what it is, if known.
    var listed: [(name: String, summary: String)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.replaced == rhs.replaced && lhs.insertion == rhs.insertion
            && lhs.listed.map(\.name) == rhs.listed.map(\.name)
            && lhs.listed.map(\.summary) == rhs.listed.map(\.summary)
    }

    /// Lists a directory: entries (without `.` and `..`) and whether each is a directory.
    typealias DirectoryLister = @Sendable (String) -> [(name: String, isDirectory: Bool)]

    /// Nil when nothing fits.
    static func complete(
        _ characters: [Character], cursor: Int, sources: CompletionSources, home: String = HomeDirectory.path,
        list: DirectoryLister = InputCompletion.listDirectory
    ) -> InputCompletion? {
        let before = characters[0..<cursor]
        guard before.first == "/", !before.contains("\n") else { return nil }
        guard let space = before.firstIndex(of: " ") else {
            let typed = String(before.dropFirst())
            let matches = sources.commands.filter { $0.name.lowercased().hasPrefix(typed.lowercased()) }
            return choose(
                from: matches.map { ($0.name, $0.summary) }, typed: typed, replacing: 1..<cursor, terminator: " ")
        }
        let command = String(before[1..<space])
        let argumentStart = before[(space + 1)...].firstIndex { !$0.isWhitespace } ?? cursor
        let argument = String(characters[argumentStart..<cursor])
        let fixed: [String]
        switch command {
        case "session": fixed = sources.sessionKeys
        case "model": fixed = sources.modelIds + ["default"]
        case "think": fixed = sources.thinkingWords
        case "attach":
            return completePath(characters, cursor: cursor, from: argumentStart, home: home, list: list)
        default: return nil
        }
        let matches = fixed.filter { $0.lowercased().hasPrefix(argument.lowercased()) }
        return choose(
            from: matches.map { ($0, "") }, typed: argument, replacing: argumentStart..<cursor, terminator: "")
    }

    private static func choose(
        from candidates: [(String, String)], typed: String, replacing range: Range<Int>, terminator: String,
        caseSensitive: Bool = false
    ) -> InputCompletion? {
        var seen = Set<String>()
        let unique = candidates.filter { seen.insert($0.0).inserted }
        guard let first = unique.first else { return nil }
        if unique.count == 1 {
            return InputCompletion(replaced: range, insertion: first.0 + terminator, listed: [])
        }
        let common = unique.dropFirst().reduce(first.0) {
            $0.commonPrefix(with: $1.0, caseInsensitive: !caseSensitive)
        }
        if common.count > typed.count {
            return InputCompletion(replaced: range, insertion: common, listed: [])
        }
        return InputCompletion(
            replaced: range, insertion: String(typed), listed: unique.map { (name: $0.0, summary: $0.1) })
    }

    /// The last word of `/attach`'s argument as a path: `~` and backslash escapes read as `AttachPaths`
    /// reads them, the completed name written back escaped.
    private static func completePath(
        _ characters: [Character], cursor: Int, from start: Int, home: String, list: DirectoryLister
    ) -> InputCompletion? {
        var wordStart = start
        var index = start
        while index < cursor {
            if characters[index] == "\\" {
                index += 2
                continue
            }
            if characters[index] == " " { wordStart = index + 1 }
            index += 1
        }
        let typed = String(characters[wordStart..<min(cursor, characters.count)])
        var unescaped = ""
        var escaping = false
        for character in typed {
            if escaping || character != "\\" {
                unescaped.append(character)
                escaping = false
            } else {
                escaping = true
            }
        }
        let slash = unescaped.lastIndex(of: "/")
        let directoryTyped = slash.map { String(unescaped[...$0]) } ?? ""
        let namePrefix = slash.map { String(unescaped[unescaped.index(after: $0)...]) } ?? unescaped
        var directory = directoryTyped.isEmpty ? "." : directoryTyped
        if directory == "~/" || directory.hasPrefix("~/") { directory = home + directory.dropFirst() }
        let entries = list(directory)
            .filter { $0.name.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !$0.name.hasPrefix(".")) }
            .sorted { $0.name < $1.name }
        let candidates = entries.map { (escape(directoryTyped + $0.name) + ($0.isDirectory ? "/" : ""), "") }
        guard
            let chosen = choose(
                from: candidates, typed: typed, replacing: wordStart..<cursor, terminator: " ", caseSensitive: true)
        else { return nil }
        var result = chosen
        if result.insertion.hasSuffix("/ ") { result.insertion.removeLast() }
        // Listed by name only, as a shell lists them.
        result.listed = entries.map { (name: $0.name + ($0.isDirectory ? "/" : ""), summary: "") }
        if !chosen.listed.isEmpty { return result }
        result.listed = []
        return result
    }

    /// A path as typed back: spaces and the characters `AttachPaths` reads specially escaped.
    private static func escape(_ path: String) -> String {
        var out = ""
        for character in path {
            if character.isWhitespace || character == "\\" || character == "'" || character == "\"" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    static let listDirectory: DirectoryLister = { path in
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.prefix(5_000).map { name in
            // NSString's appendingPathComponent, for a name from the listing (never empty, no "/").
            let full = path.isEmpty ? name : path.hasSuffix("/") ? path + name : path + "/" + name
            return (name, FileSystemEntry(atPath: full) == .directory)
        }
    }
}
