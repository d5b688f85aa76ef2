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
    public var displayCommand: String { CommandText.render(argv) }

    /// Why `rawCommand` cannot stand for argv, or nil when it is absent or agrees. It agrees when it is
    /// this node's rendering of argv, upstream's (`formatExecCommand`: double quotes around an
    /// argument with white space or `"`), or, for `SHELL -c PAYLOAD` alone, the payload itself.
    public var rawCommandProblem: String? {
        guard let rawCommand else { return nil }
        let text = rawCommand.trimmedOfWhitespace
        if text == displayCommand || text == Self.upstreamText(argv) { return nil }
        if argv.count == 3, ExecProgramRisk.shells.contains(ExecProgramName(argv[0]).base),
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
