/// A case-insensitive path glob, as exec-approvals allowlists use: `*` matches within one path
/// component, `**` across components, `?` one character other than `/`; a leading `~` is the home
/// directory. Everything else matches itself.
public struct PathGlob: Sendable, Hashable {
    public let pattern: String
    let tokens: [Token]

    enum Token: Hashable {
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

    static func match(_ tokens: [Token], _ text: [Character], separator: Character?) -> Bool {
        GlobRowWalk.matches(
            tokens.map { token in
                switch token {
                case .anyInComponent: .many { text[$0] != separator }
                case .anyAcrossComponents: .many { _ in true }
                case .literal(let character): .one { text[$0] == character }
                case .oneCharacter: .one { text[$0] != separator }
                }
            }, length: text.count)
    }

    /// Tokens of a glob in which `*` matches any run of characters and `?` any one (no separator).
    static func tokens(of pattern: String) -> [Token] {
        PathGlob(pattern).tokens
    }

    static func matchWithoutSeparator(_ tokens: [Token], _ text: String) -> Bool {
        match(tokens, Array(text.lowercased()), separator: nil)
    }
}
