/// What a command really runs once the programs that only start another program are looked through.
///
/// `timeout 5 nice -n 3 sh -c '…'` is judged as `sh -c '…'`: a policy that asks for an exact entry
/// before a shell runs must not be satisfied by the harmless-looking `timeout` in front of it.
public struct ExecCommandChain: Sendable, Hashable {
    /// The dispatch wrappers looked through, outermost first (their names as written).
    public var wrappers: [String]
    /// Where each wrapper stands in the original argv (same order as ``wrappers``).
    public var wrapperOffsets: [Int] = []
    /// The argv the innermost program receives: the command the policy judges.
    public var target: [String]
    /// Where ``target`` starts in the original argv.
    public var targetOffset: Int
    /// Variables the wrappers set for the target (`env NAME=value …`): judged as request variables.
    public var assignments: [String: String]
}

/// Looks through dispatch wrappers (`env`, `nice`, `nohup`, `stdbuf`, `timeout`, `time`), parsing
/// each one's own options so that an option's value is never mistaken for the command. A wrapper
/// option that changes how the inner command is found or split (`env -S`, `env -C`) cannot be judged
/// and is refused, as is anything the parser does not know: the answer is never a guess.
public enum ExecWrapperResolver {
    public enum Outcome: Sendable, Hashable {
        case resolved(ExecCommandChain)
        /// The wrapper at argv index `offset` cannot be looked through; `reason` says why.
        case refused(wrapper: String, reason: String)
    }

    /// At most this many wrappers deep; a deeper chain is refused rather than walked.
    public static let maxDepth = 4

    public static func resolve(_ argv: [String]) -> Outcome {
        var chain = ExecCommandChain(wrappers: [], target: argv, targetOffset: 0, assignments: [:])
        while let first = chain.target.first, let wrapper = DispatchWrapper(programName: ExecProgramName(first)) {
            guard chain.wrappers.count < maxDepth else {
                return .refused(wrapper: first, reason: "more than \(maxDepth) wrappers deep")
            }
            switch wrapper.innerCommandStart(Array(chain.target.dropFirst())) {
            case .failure(let refusal):
                return .refused(wrapper: first, reason: refusal.reason)
            case .success(let (start, assignments)):
                guard start < chain.target.count - 1 else {
                    // `env` alone, `nice` alone: the wrapper is the whole command.
                    return .resolved(chain)
                }
                chain.wrappers.append(first)
                chain.wrapperOffsets.append(chain.targetOffset)
                chain.assignments.merge(assignments) { _, new in new }
                chain.targetOffset += 1 + start
                chain.target = Array(chain.target.dropFirst(1 + start))
            }
        }
        return .resolved(chain)
    }
}

/// A program whose only job is to start the rest of its arguments as a command, and how to find
/// where that command begins.
enum DispatchWrapper: Sendable {
    case env, nice, nohup, stdbuf, timeout, time

    init?(programName: ExecProgramName) {
        switch programName.base {
        case "env": self = .env
        case "nice": self = .nice
        case "nohup": self = .nohup
        case "stdbuf": self = .stdbuf
        case "timeout": self = .timeout
        case "time": self = .time
        default: return nil
        }
    }

    /// The index, within the wrapper's arguments, of the inner command, and what the wrapper sets in
    /// its environment; or why it cannot be told.
    func innerCommandStart(_ arguments: [String]) -> Result<(Int, [String: String]), WrapperRefusal> {
        var index = 0
        var assignments: [String: String] = [:]
        func value(of option: String, _ argument: String) -> Bool {
            // `-n 5` (value next) or `-n5` / `--adjustment=5` (value attached).
            if argument == option {
                index += 1
                return index < arguments.count
            }
            return true
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                index += 1
                break
            }
            switch self {
            case .env:
                if let equals = argument.firstIndex(of: "="), !argument.hasPrefix("-") {
                    assignments[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
                    index += 1
                    continue
                }
            case .timeout:
                if !argument.hasPrefix("-") || argument == "-" {
                    // The duration; the command follows it.
                    return .success((index + 1, assignments))
                }
            default: break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else { break }
            switch options.parse(argument) {
            case .flag: break
            case .takesValue(let option):
                guard value(of: option, argument) else { return .failure(WrapperRefusal("\(argument) has no value")) }
            case .unjudgeable:
                return .failure(
                    WrapperRefusal("its option \(argument) changes what runs or where, which cannot be judged"))
            case .unknown:
                return .failure(WrapperRefusal("its option \(argument) is not one this node knows"))
            }
            index += 1
        }
        if self == .timeout { return .failure("no duration") }
        return .success((index, assignments))
    }

    private var options: WrapperOptions {
        switch self {
        case .env:
            WrapperOptions(
                flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"],
                flagPrefixes: ["--default-signal", "--ignore-signal", "--block-signal", "--list-signal-handling"],
                valued: ["-u": "-u", "--unset": "--unset"],
                unjudgeable: ["-S", "--split-string", "-C", "--chdir", "-P", "--path", "--argv0", "-a"])
        case .nice:
            WrapperOptions(
                flags: [], flagPrefixes: [], valued: ["-n": "-n", "--adjustment": "--adjustment"],
                unjudgeable: [], numericFlags: true)
        case .nohup:
            WrapperOptions(flags: [], flagPrefixes: [], valued: [:], unjudgeable: [])
        case .stdbuf:
            WrapperOptions(
                flags: [], flagPrefixes: [],
                valued: [
                    "-i": "-i", "-o": "-o", "-e": "-e", "--input": "--input", "--output": "--output",
                    "--error": "--error",
                ],
                unjudgeable: [])
        case .timeout:
            WrapperOptions(
                flags: ["--preserve-status", "--foreground", "-v", "--verbose", "-f"], flagPrefixes: [],
                valued: ["-s": "-s", "--signal": "--signal", "-k": "-k", "--kill-after": "--kill-after"],
                unjudgeable: [])
        case .time:
            // `-o FILE` writes the `-f` text to any file (upstream: not transparent), so it is refused.
            WrapperOptions(
                flags: ["-a", "--append", "-p", "--portability", "-v", "--verbose", "-q", "--quiet"],
                flagPrefixes: [], valued: ["-f": "-f", "--format": "--format"],
                unjudgeable: ["-o", "--output"])
        }
    }
}

/// Why a wrapper cannot be looked through, for the refusal the agent and the log see.
struct WrapperRefusal: Error, ExpressibleByStringLiteral {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    init(stringLiteral reason: String) {
        self.reason = reason
    }
}

/// One wrapper's option grammar: which options are plain flags, which take a value (next argument
/// or attached), and which make the wrapper's behaviour impossible to judge.
struct WrapperOptions {
    var flags: Set<String>
    var flagPrefixes: [String]
    /// Option → its canonical spelling when the value is the next argument.
    var valued: [String: String]
    var unjudgeable: Set<String>
    /// `nice -5`: an old-style numeric adjustment.
    var numericFlags = false

    enum Parsed {
        case flag
        /// The value is the next argument when the text equals `option`, attached otherwise.
        case takesValue(option: String)
        case unjudgeable
        case unknown
    }

    func parse(_ argument: String) -> Parsed {
        let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
        if flags.contains(argument) { return .flag }
        if unjudgeable.contains(name) || unjudgeable.contains(where: { !$0.hasPrefix("--") && argument.hasPrefix($0) })
        {
            return .unjudgeable
        }
        if flagPrefixes.contains(where: { name == $0 }) { return .flag }
        if argument.hasPrefix("--") {
            if valued[name] != nil { return .takesValue(option: argument.contains("=") ? "" : name) }
            return .unknown
        }
        if numericFlags, argument.dropFirst().allSatisfy(\.isNumber) { return .flag }
        // Short options: `-n5` attached, `-n` then value; a cluster of known flags (`-iv`).
        let option = String(argument.prefix(2))
        if valued[option] != nil { return .takesValue(option: argument == option ? option : "") }
        let cluster = argument.dropFirst().map { "-\($0)" }
        if cluster.allSatisfy(flags.contains) { return .flag }
        return .unknown
    }
}
