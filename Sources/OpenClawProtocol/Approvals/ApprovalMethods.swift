/// The approval methods as typed calls (``GatewayMethod``), all under `operator.approvals`.
extension ExecApprovalResolveParams: GatewayMethod {
    public typealias Response = GatewayAcknowledgement
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.approvals)
}

/// `exec.approval.get {id}`: answers while the request is pending, refuses with not-found after.
public struct ExecApprovalGetParams: GatewayMethod, Hashable {
    public typealias Response = GatewayAcknowledgement
    public static let method = ExecApprovalNames.getMethod
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.approvals)
    public var id: String

    public init(id: String) { self.id = id }

    public var json: JSONValue { ["id": .string(id)] }
}

/// `exec.approval.list {}`: the pending requests, as the items of the answer. Upstream answers with an
/// array; other implementations wrap it (`approvals`, `items`), all read here.
public struct ExecApprovalListParams: GatewayMethod, Hashable {
    public typealias Response = [JSONValue]
    public static let method = ExecApprovalNames.listMethod
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.approvals)

    public init() {}

    public var json: JSONValue { .object([:]) }

    public func response(from payload: JSONValue?) -> [JSONValue]? {
        payload?.arrayValue ?? payload?["approvals"]?.arrayValue ?? payload?["items"]?.arrayValue ?? []
    }
}

extension ApprovalResolveParams: GatewayMethod {
    /// The recorded result, nil when the gateway's answer does not say (then the decision stands).
    public typealias Response = ApprovalResolveResult?
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.approvals)
    public func response(from payload: JSONValue?) -> ApprovalResolveResult?? {
        .some(ApprovalResolveResult(json: payload))
    }
}

extension ApprovalGetParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.approvals)
    public func response(from payload: JSONValue?) -> ApprovalSnapshot? {
        ApprovalSnapshot(json: payload?["approval"])
    }
}

extension ApprovalHistoryParams: GatewayMethod {
    public static let access = GatewayMethodAccess.operatorScope(OperatorScope.approvals)
    public func response(from payload: JSONValue?) -> ApprovalHistoryPage? { ApprovalHistoryPage(json: payload) }
}
