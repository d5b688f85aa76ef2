import OpenClawProtocol

/// What the gateway forwards of an operator's `system.run` invoke, as upstream's gateway does
/// (`node-invoke-sanitize.ts`, see docs/NODE-SECURITY-FACTS.md): a copy of the known fields only, so
/// an `approved`, `approvalDecision` or `systemRunPlan` written by the caller never reaches the node;
/// a claimed approval is put back only when `runId` names an approval this gateway recorded for that
/// node and exactly that command, which was allowed and (allow-once) not used yet.
struct SystemRunInvokeSanitizer {
    static let forwardedFields = [
        "command", "rawCommand", "cwd", "env", "timeoutMs", "needsScreenRecording", "agentId", "sessionKey", "runId",
    ]

    enum Outcome {
        case forward(JSONValue)
        /// The invoke is refused with this code (upstream's `details.code`) and message.
        case refuse(code: String, message: String)
    }

    static func sanitize(
        _ params: JSONValue?, nodeId: String, approvals: inout ApprovalRegistry
    ) -> Outcome {
        let members = params?.objectValue ?? [:]
        var forwarded: [String: JSONValue] = [:]
        for field in forwardedFields { forwarded[field] = members[field] }
        let decision = members["approvalDecision"]?.stringValue
        let claims = members["approved"]?.boolValue == true || decision == "allow-once" || decision == "allow-always"
        guard claims else { return .forward(.object(forwarded)) }
        guard let runId = members["runId"]?.stringValue, !runId.isEmpty else {
            return .refuse(code: "MISSING_RUN_ID", message: "approval override requires params.runId")
        }
        guard let record = approvals.records[runId], !record.expired, let granted = record.decision, granted.allowsRun
        else {
            return .refuse(code: "UNKNOWN_APPROVAL_ID", message: "unknown or expired approval id")
        }
        let binding = record.request["systemRunBinding"]
        guard record.request["host"]?.stringValue == "node", record.request["nodeId"]?.stringValue == nodeId,
            let argv = binding?["argv"], !(argv.arrayValue?.isEmpty ?? true), argv == members["command"],
            binding?["cwd"] ?? .null == members["cwd"] ?? .null,
            binding?["agentId"] ?? .null == members["agentId"] ?? .null,
            binding?["sessionKey"] ?? .null == members["sessionKey"] ?? .null
        else {
            return .refuse(code: "APPROVAL_REQUEST_MISMATCH", message: "approval id does not match request")
        }
        if granted == .allowOnce {
            guard approvals.consumeAllowOnce(runId) else {
                return .refuse(code: "APPROVAL_REQUIRED", message: "approval required")
            }
        }
        forwarded["approved"] = true
        forwarded["approvalDecision"] = .string(granted.rawValue)
        return .forward(.object(forwarded))
    }
}

extension ApprovalRegistry {
    /// An allow-once approval lets exactly one run through.
    mutating func consumeAllowOnce(_ id: String) -> Bool {
        consumed.insert(id).inserted
    }
}
