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
        GlobRowWalk.matches(
            arguments.map { argument in
                switch argument {
                case .anyArguments: .many { _ in true }
                case .glob(let tokens): .one { PathGlob.matchWithoutSeparator(tokens, argv[$0]) }
                }
            }, length: argv.count)
    }
}
