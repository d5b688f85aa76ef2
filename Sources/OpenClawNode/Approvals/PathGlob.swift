/// A case-insensitive path glob, as exec-approvals allowlists use: `*` matches within one path
/// component, `**` across components, `?` one character other than `/`; a leading `~` is the home
/// directory. Everything else matches itself.
public struct PathGlob: Sendable, Hashable {
    public let pattern: String
    fileprivate let tokens: [Token]

    fileprivate enum Token: Hashable {
        case literal(Character)
        case anyInComponent
        case anyAcrossComponents
        case oneCharacter
    }

    public init(_ pattern: String, home: String? = nil) {
        var expanded = pattern
        if let home, expanded == "~" || expanded.hasPrefix("~/") { expanded = home + expanded.dropFirst() }
        self.pattern = expanded
        var tokens: [Token] = []
        var characters = Array(expanded.lowercased())[...]
        while let character = characters.popFirst() {
            switch character {
            case "*":
                if characters.first == "*" {
                    characters.removeFirst()
                    tokens.append(.anyAcrossComponents)
                } else {
                    tokens.append(.anyInComponent)
                }
            case "?": tokens.append(.oneCharacter)
            default: tokens.append(.literal(character))
            }
        }
        self.tokens = tokens
    }

    /// Whether the last path component has a wildcard (`/usr/bin/*` does, `/usr/bin/bash` does not).
    public var hasWildcardInLastComponent: Bool {
        let last = pattern.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return last.contains { $0 == "*" || $0 == "?" }
    }

    public func matches(_ path: String) -> Bool {
        Self.match(tokens, Array(path.lowercased()), separator: "/")
    }

    /// Dynamic programming over one row per token: time tokens × characters, memory one row, no
    /// recursion, so a hostile megabyte-long text or pattern cannot exhaust the stack.
    fileprivate static func match(_ tokens: [Token], _ text: [Character], separator: Character?) -> Bool {
        // row[j]: the tokens so far match text[0..<j].
        var row = [Bool](repeating: false, count: text.count + 1)
        row[0] = true
        var next = row
        for token in tokens {
            next[0] = false
            switch token {
            case .anyInComponent, .anyAcrossComponents:
                let crosses = token == .anyAcrossComponents
                next[0] = row[0]
                for j in stride(from: 1, through: text.count, by: 1) {
                    next[j] = row[j] || (next[j - 1] && (crosses || text[j - 1] != separator))
                }
            case .literal(let character):
                for j in stride(from: 1, through: text.count, by: 1) {
                    next[j] = row[j - 1] && text[j - 1] == character
                }
            case .oneCharacter:
                for j in stride(from: 1, through: text.count, by: 1) {
                    next[j] = row[j - 1] && text[j - 1] != separator
                }
            }
            swap(&row, &next)
            if !row.contains(true) { return false }
        }
        return row[text.count]
    }

    /// Tokens of a glob in which `*` matches any run of characters and `?` any one (no separator).
    fileprivate static func tokens(of pattern: String) -> [Token] {
        PathGlob(pattern).tokens
    }

    fileprivate static func matchWithoutSeparator(_ tokens: [Token], _ text: String) -> Bool {
        match(tokens, Array(text.lowercased()), separator: nil)
    }
}

/// An allowlist entry's `argPattern`, matched argument by argument: the pattern is split at spaces
/// into one glob per argument (`*` and `?` stay inside their argument, `/` included), and a lone `**`
/// stands for any number of whole arguments. `status` matches exactly `["status"]`; `log *` matches
/// `log` and one more argument; `log **` matches `log` followed by anything. Because a wildcard never
/// crosses an argument boundary, `["log", "x; rm -rf ~"]` cannot satisfy a pattern meant for two
/// plain arguments by borrowing spaces from one of them.
public struct ArgumentPattern: Sendable, Hashable {
    public let pattern: String
    private let arguments: [Argument]

    private enum Argument: Hashable {
        case glob([PathGlob.Token])
        case anyArguments
    }

    public init(_ pattern: String) {
        self.pattern = pattern
        arguments = pattern.split(separator: " ", omittingEmptySubsequences: true).map { word in
            word == "**" ? .anyArguments : .glob(PathGlob.tokens(of: String(word)))
        }
    }

    public func matches(_ argv: [String]) -> Bool {
        // row[j]: the pattern so far matches argv[0..<j]; the same row walk as PathGlob, over arguments.
        var row = [Bool](repeating: false, count: argv.count + 1)
        row[0] = true
        var next = row
        for argument in arguments {
            next[0] = false
            switch argument {
            case .anyArguments:
                next[0] = row[0]
                for j in stride(from: 1, through: argv.count, by: 1) { next[j] = row[j] || next[j - 1] }
            case .glob(let tokens):
                for j in stride(from: 1, through: argv.count, by: 1) {
                    next[j] = row[j - 1] && PathGlob.matchWithoutSeparator(tokens, argv[j - 1])
                }
            }
            swap(&row, &next)
            if !row.contains(true) { return false }
        }
        return row[argv.count]
    }
}
