/// `exec.approval.requested`: `{id, request: {…}, createdAtMs, expiresAtMs}` — a command the agent
/// wants to run waits for an operator's decision.
///
/// Read leniently (v3 and v4 send the same shape; older and newer gateways leave fields out or send
/// `null`): only `id` is required. The command text comes from `request.command`, else
/// `request.systemRunPlan.commandText`, else the argv joined by spaces; `cwd`, `agentId` and
/// `sessionKey` fall back to the `systemRunPlan`'s. A list of allowed decisions with no known value
/// means all three (a gateway that restricts them also refuses the others when resolving).
public struct ExecApprovalRequest: Sendable, Hashable {
    public var id: String
    /// The command as the gateway will run it (for a node host, the canonical text of its plan).
    public var command: String
    /// The gateway's own short rendering, when it sends one; never shown instead of ``command``.
    public var commandPreview: String?
    /// The argv, when the gateway sends it (node hosts always do), at most ``maxArgvCount`` items.
    public var argv: [String]
    public var cwd: String?
    /// `gateway` or `node` (where the command runs).
    public var host: String?
    public var nodeId: String?
    public var agentId: String?
    public var sessionKey: String?
    /// The host policy that asked: `security` (`deny`/`allowlist`/`full`) and `ask`.
    public var security: String?
    public var ask: String?
    /// The executable's path as the host resolved it.
    public var resolvedPath: String?
    /// Names (never values) of environment variables the request sets.
    public var envKeys: [String]
    /// What the approver may answer, in the gateway's order.
    public var allowedDecisions: [ExecApprovalDecision]
    /// Epoch milliseconds on the gateway's clock.
    public var createdAtMs: Int?
    public var expiresAtMs: Int?

    /// Argv beyond this many items is dropped when reading (a gateway controls the count).
    public static let maxArgvCount = 1_000

    public init(
        id: String,
        command: String,
        commandPreview: String? = nil,
        argv: [String] = [],
        cwd: String? = nil,
        host: String? = nil,
        nodeId: String? = nil,
        agentId: String? = nil,
        sessionKey: String? = nil,
        security: String? = nil,
        ask: String? = nil,
        resolvedPath: String? = nil,
        envKeys: [String] = [],
        allowedDecisions: [ExecApprovalDecision] = ExecApprovalDecision.allCases,
        createdAtMs: Int? = nil,
        expiresAtMs: Int? = nil
    ) {
        self.id = id
        self.command = command
        self.commandPreview = commandPreview
        self.argv = argv
        self.cwd = cwd
        self.host = host
        self.nodeId = nodeId
        self.agentId = agentId
        self.sessionKey = sessionKey
        self.security = security
        self.ask = ask
        self.resolvedPath = resolvedPath
        self.envKeys = envKeys
        self.allowedDecisions = allowedDecisions
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
    }

    /// The event payload; nil without an `id`.
    public init?(json: JSONValue?) {
        guard let json, let id = json["id"]?.nonEmptyStringValue else { return nil }
        let request = json["request"]
        let plan = request?["systemRunPlan"]
        let argv = Array(
            (Self.strings(request?["commandArgv"]) ?? Self.strings(plan?["argv"]) ?? []).prefix(Self.maxArgvCount))
        self.id = id
        self.argv = argv
        self.command =
            request?["command"]?.nonEmptyStringValue ?? plan?["commandText"]?.nonEmptyStringValue
            ?? argv.joined(separator: " ")
        self.commandPreview =
            request?["commandPreview"]?.nonEmptyStringValue ?? plan?["commandPreview"]?.nonEmptyStringValue
        self.cwd = request?["cwd"]?.nonEmptyStringValue ?? plan?["cwd"]?.nonEmptyStringValue
        self.host = request?["host"]?.nonEmptyStringValue
        self.nodeId = request?["nodeId"]?.nonEmptyStringValue
        self.agentId = request?["agentId"]?.nonEmptyStringValue ?? plan?["agentId"]?.nonEmptyStringValue
        self.sessionKey = request?["sessionKey"]?.nonEmptyStringValue ?? plan?["sessionKey"]?.nonEmptyStringValue
        self.security = request?["security"]?.nonEmptyStringValue
        self.ask = request?["ask"]?.nonEmptyStringValue
        self.resolvedPath = request?["resolvedPath"]?.nonEmptyStringValue
        self.envKeys = Array((Self.strings(request?["envKeys"]) ?? []).prefix(Self.maxArgvCount))
        let allowed = (Self.strings(request?["allowedDecisions"]) ?? []).compactMap(
            ExecApprovalDecision.init(rawValue:))
        self.allowedDecisions =
            allowed.isEmpty ? ExecApprovalDecision.allCases : ExecApprovalDecision.allCases.filter(allowed.contains)
        self.createdAtMs = WireTimestamp.epochMilliseconds(json["createdAtMs"])
        self.expiresAtMs = WireTimestamp.epochMilliseconds(json["expiresAtMs"])
    }

    /// The string members of an array (others skipped); nil when it is not an array.
    private static func strings(_ value: JSONValue?) -> [String]? {
        value?.arrayValue?.compactMap(\.stringValue)
    }

    /// How long the gateway gives an approver, by its own clock: `expiresAtMs - createdAtMs`, so a
    /// skewed local clock changes nothing. Nil when either is missing or the span is negative.
    public var lifetimeMs: Int? {
        guard let createdAtMs, let expiresAtMs else { return nil }
        let (span, overflow) = expiresAtMs.subtractingReportingOverflow(createdAtMs)
        return overflow || span < 0 ? nil : span
    }
}
