/// Why `exec.approval.resolve` refused a decision: the `details.reason` of its `INVALID_REQUEST`
/// answer. Open, like ``ErrorDetailCode``: a gateway may add reasons, and an unknown one is kept as it
/// came, so a client decides by these constants and treats anything else as a plain refusal.
public struct ApprovalRefusalReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Another approver decided the request differently first; the request is closed.
    public static let alreadyResolved: ApprovalRefusalReason = "APPROVAL_ALREADY_RESOLVED"
    /// No such request: the id is unknown, or it expired or the gateway restarted. Gateways also send
    /// this as the top-level ``ErrorCode/approvalNotFound``.
    public static let notFound = ApprovalRefusalReason(rawValue: ErrorCode.approvalNotFound.rawValue)
}

extension ErrorShape {
    /// `details.reason` read as an approval refusal's reason; nil when the details carry none.
    public var approvalRefusalReason: ApprovalRefusalReason? {
        details?["reason"]?.stringValue.map(ApprovalRefusalReason.init(rawValue:))
    }
}
