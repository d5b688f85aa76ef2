import ArgumentParser

/// The command line as people write it, put in the order the parser reads it.
///
/// - Options before the subcommand (`openclaw-chat --gateway work history`) belong to it: the options
///   every command shares are moved after its name (and after a nested command's, `approvals watch`).
/// - A question as the first word (`openclaw-chat "what changed?"`) is sent, as `llm "question"` does:
///   a first word that is no command, no option and not a typo of a command means `send`.
enum ArgumentOrder {
    /// Shared options that take a value (the next word), and those that do not.
    static let valueOptions: Set<String> = [
        "--url", "--token", "--password", "--gateway", "--state-dir", "--tls-fingerprint", "--session", "--thinking",
    ]
    static let flagOptions: Set<String> = ["--verbose", "--trace", "--trust-on-first-use"]

    static func rearranged(_ arguments: [String]) -> [String] {
        let index = firstWordAfterSharedOptions(arguments)
        let leading = Array(arguments[..<index])
        guard index < arguments.count else { return arguments }
        let word = arguments[index]
        let rest = Array(arguments[(index + 1)...])
        if let nested = subcommandNames[word] {
            guard !leading.isEmpty else { return arguments }
            if let next = rest.first, nested.contains(next) {
                return [word, next] + leading + rest.dropFirst()
            }
            return [word] + leading + rest
        }
        guard !word.hasPrefix("-"), word != "help" else { return arguments }
        // A typo of a command goes first, where it is reported as one.
        return isQuestion(word) ? ["send"] + leading + [word] + rest : [word] + leading + rest
    }

    /// The word the command line starts with once the shared options before it are passed over: the
    /// command's name, as ``rearranged(_:)`` puts it first (nil when there is none). Looks up no command,
    /// so a program can ask it before anything else is set up.
    static func commandWord(_ arguments: [String]) -> String? {
        let index = firstWordAfterSharedOptions(arguments)
        return index < arguments.count ? arguments[index] : nil
    }

    /// Where the leading shared options (with their values) end.
    private static func firstWordAfterSharedOptions(_ arguments: [String]) -> Int {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "="),
                valueOptions.contains(String(word[..<equals]))
            {
                index += 1
            } else if valueOptions.contains(word), index + 1 < arguments.count {
                index += 2
            } else if flagOptions.contains(word) {
                index += 1
            } else {
                break
            }
        }
        return index
    }

    /// Each subcommand's name and the names of its own subcommands.
    private static var subcommandNames: [String: [String]] {
        var names: [String: [String]] = [:]
        for subcommand in OpenClawChatCommand.configuration.subcommands {
            let configuration = subcommand.configuration
            guard let name = configuration.commandName else { continue }
            var nested: [String] = []
            for child in configuration.subcommands {
                if let childName = child.configuration.commandName { nested.append(childName) }
            }
            names[name] = nested
        }
        return names
    }

    /// Whether a first word reads as a question rather than a command: several words, or a question
    /// mark. A single other word stays a usage error: a mistyped command, or a secret that lost its
    /// option (`openclaw-chat sk-…`), must not reach the agent.
    static func isQuestion(_ word: String) -> Bool {
        word.contains(where: \.isWhitespace) || word.contains("?")
    }
}
