import OpenClawProtocol

/// `system.run` / `system.run.prepare` params: `{command: [argv], rawCommand?, cwd?, env?, timeoutMs?,
/// agentId?, sessionKey?, approved?, approvalDecision?, runId?}`.
public struct SystemRunParams: NodeCommandParams, Hashable {
    public var argv: [String]
    public var rawCommand: String?
    public var cwd: String?
    public var env: [String: String]
    public var timeoutMs: Int?
    public var agentId: String?
    public var sessionKey: String?
    public var approval: ExecApprovalDecision?
    /// The request claims an approval in some form (`approved`, `approvalDecision`,
    /// `approvalSource`, `systemRunPlan`): it counts only if bound to a plan this node prepared.
    public var claimsApproval = false
    public var runId: String?

    public init(argv: [String], cwd: String? = nil, env: [String: String] = [:], timeoutMs: Int? = nil) {
        self.argv = argv
        self.cwd = cwd
        self.env = env
        self.timeoutMs = timeoutMs
    }

    public init(json: JSONValue?) throws(NodeInvokeError) {
        let reader = try NodeParamReader(json)
        guard let argv = try reader.strings("command"), let first = argv.first, !first.isEmpty else {
            throw .invalidParams("command must be a non-empty array of strings")
        }
        guard argv.allSatisfy({ !$0.contains("\0") }) else { throw .invalidParams("command contains a NUL byte") }
        self.argv = argv
        rawCommand = try reader.string("rawCommand")
        cwd = try reader.string("cwd").flatMap { $0.isEmpty ? nil : $0 }
        env = try reader.stringMap("env") ?? [:]
        timeoutMs = try reader.int("timeoutMs").flatMap { $0 > 0 ? $0 : nil }
        agentId = try reader.string("agentId").flatMap { $0.isEmpty ? nil : $0 }
        sessionKey = try reader.string("sessionKey")
        runId = try reader.string("runId")
        if let decision = try reader.string("approvalDecision") {
            guard let value = ExecApprovalDecision(rawValue: decision) else {
                throw .invalidParams("approvalDecision must be allow-once, allow-always or deny")
            }
            approval = value
        } else if try reader.bool("approved") == true {
            approval = .allowOnce
        } else if try reader.string("approvalSource") != nil {
            approval = .allowOnce
        }
        claimsApproval = approval != nil || reader.has("systemRunPlan")
        if claimsApproval && approval == nil { approval = .allowOnce }
    }

    /// The command as one line, for approvers, events and logs: always computed from argv, never
    /// taken from the request's `rawCommand` (which must agree with it, see ``rawCommandProblem``).
    /// The request's variables come first (`NAME=value … command`): they change what runs, and the
    /// approver approves them too.
    public var displayCommand: String {
        let assignments = env.sorted { $0.key < $1.key }.map { CommandText.quote("\($0.key)=\($0.value)") }
        return (assignments + [CommandText.render(argv)]).joined(separator: " ")
    }

    /// The most a command may carry (arguments and variables together), well under the kernel's own
    /// limit: a plan is remembered until it runs, and a frame can carry far more.
    public static let maxCommandBytes = 256 * 1024
    public static let maxArguments = 10_000

    /// Why the command is too large to judge or remember, or nil.
    public var sizeProblem: String? {
        let bytes =
            argv.reduce(0) { $0 + $1.utf8.count + 1 }
            + env.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 }
        if argv.count > Self.maxArguments {
            return "the command has \(argv.count) arguments (at most \(Self.maxArguments))"
        }
        if bytes > Self.maxCommandBytes {
            return "the command and its variables take \(bytes) bytes (at most \(Self.maxCommandBytes))"
        }
        return nil
    }

    /// Every command ends: without a `timeoutMs` after 30 minutes, and never later than 24 hours, so
    /// a forged invoke cannot hold one of the node's few slots for ever.
    public static let defaultTimeoutMs = 30 * 60 * 1000
    public static let maxTimeoutMs = 24 * 3600 * 1000

    public static func effectiveTimeoutMs(_ requested: Int?) -> Int {
        min(requested ?? defaultTimeoutMs, maxTimeoutMs)
    }

    /// Why `rawCommand` cannot stand for argv, or nil when it is absent or agrees. It agrees when it is
    /// this node's rendering of argv, upstream's (`formatExecCommand`: double quotes around an
    /// argument with white space or `"`), or, for `SHELL -c PAYLOAD` alone, the payload itself.
    public var rawCommandProblem: String? {
        guard let rawCommand else { return nil }
        let text = rawCommand.trimmedOfWhitespace
        if text == displayCommand || text == CommandText.render(argv) { return nil }
        // Upstream's spelling only where it cannot carry what this node would escape.
        let plain = !argv.joined().unicodeScalars.contains(where: CommandText.needsEscape)
        if plain, text == Self.upstreamText(argv) { return nil }
        // `SHELL -c PAYLOAD` shown as its payload, for a system shell named plainly only: a file in a
        // writable directory that happens to be called `sh` could do anything with the payload.
        let systemShell = !argv[0].contains("/") || ["/bin/", "/usr/bin/"].contains { argv[0].hasPrefix($0) }
        if plain, systemShell, argv.count == 3, ExecProgramRisk.shells.contains(ExecProgramName(argv[0]).base),
            ["-c", "-lc"].contains(argv[1]), text == argv[2].trimmedOfWhitespace
        {
            return nil
        }
        return "rawCommand does not match command (RAW_COMMAND_MISMATCH): the approver would read "
            + "\(CommandText.quote(text)) while \(displayCommand) runs"
    }

    static func upstreamText(_ argv: [String]) -> String {
        argv.map { argument in
            if argument.isEmpty { return #""""# }
            guard argument.contains(where: { $0.isWhitespace || $0 == "\"" }) else { return argument }
            return "\"" + argument.replacing("\"", with: #"\""#) + "\""
        }.joined(separator: " ")
    }
}

/// `system.run` result: `{exitCode?, timedOut, success, stdout, stderr, error?, truncated}`.
public struct SystemRunPayload: NodeCommandPayload, Hashable {
    public var outcome: ProcessOutcome

    public var json: JSONValue {
        let error: String? =
            outcome.timedOut ? "command timed out" : outcome.signal.map { "command terminated by signal \($0)" }
        return .object(dropping: [
            ("exitCode", .int(outcome.exitCode)), ("timedOut", .bool(outcome.timedOut)),
            ("success", .bool(outcome.exitCode == 0 && !outcome.timedOut)), ("stdout", .string(outcome.stdout)),
            ("stderr", .string(outcome.stderr)), ("error", .string(error)), ("truncated", .bool(outcome.truncated)),
        ])
    }
}

extension String {
    var trimmedOfWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
