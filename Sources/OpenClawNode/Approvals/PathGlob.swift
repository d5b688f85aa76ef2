/// A case-insensitive path glob, as exec-approvals allowlists use: `*` matches within one path
/// component, `**` across components, `?` one character other than `/`; a leading `~` is the home
/// directory. Everything else matches itself.
public struct PathGlob: Sendable, Hashable {
    public let pattern: String
    private let tokens: [Token]

    private enum Token: Hashable {
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
        let text = Array(path.lowercased())
        // Iterative matching with memo: bounded work (tokens × characters) even for hostile patterns.
        var memo = [Bool?](repeating: nil, count: (tokens.count + 1) * (text.count + 1))
        func match(_ tokenIndex: Int, _ textIndex: Int) -> Bool {
            let key = tokenIndex * (text.count + 1) + textIndex
            if let known = memo[key] { return known }
            let result: Bool
            if tokenIndex == tokens.count {
                result = textIndex == text.count
            } else {
                switch tokens[tokenIndex] {
                case .literal(let character):
                    result =
                        textIndex < text.count && text[textIndex] == character && match(tokenIndex + 1, textIndex + 1)
                case .oneCharacter:
                    result = textIndex < text.count && text[textIndex] != "/" && match(tokenIndex + 1, textIndex + 1)
                case .anyInComponent:
                    result =
                        match(tokenIndex + 1, textIndex)
                        || (textIndex < text.count && text[textIndex] != "/" && match(tokenIndex, textIndex + 1))
                case .anyAcrossComponents:
                    result =
                        match(tokenIndex + 1, textIndex) || (textIndex < text.count && match(tokenIndex, textIndex + 1))
                }
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}
