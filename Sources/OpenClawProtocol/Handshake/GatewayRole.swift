/// What a connection is to the gateway (`connect.role`): an operator (a person's client: chat,
/// approvals, pairing) or a node (a device the agent runs commands on). An open type: a role a newer
/// gateway names is kept as it came.
public struct GatewayRole: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// A person's client; scopes (`operator.*`) say what it may do.
    public static let `operator` = GatewayRole(rawValue: "operator")
    /// A device that runs commands for the agent under its own exec policy; it has no operator scopes.
    public static let node = GatewayRole(rawValue: "node")

    public var description: String { rawValue }
}
