/// `exec.approval.resolve` params: exactly `{id, decision}` (closed schema `ExecApprovalResolveParams`,
/// both strings of at least one character, identical in v3 and v4).
public struct ExecApprovalResolveParams: GatewayMethodParams, Hashable {
    public static let method = ExecApprovalNames.resolveMethod

    public var id: String
    public var decision: ExecApprovalDecision

    public init(id: String, decision: ExecApprovalDecision) {
        self.id = id
        self.decision = decision
    }

    public var json: JSONValue { ["id": .string(id), "decision": .string(decision.rawValue)] }
}
