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
        }
    }

    /// The command as one line, for events and logs.
    public var displayCommand: String {
        rawCommand ?? argv.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
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
