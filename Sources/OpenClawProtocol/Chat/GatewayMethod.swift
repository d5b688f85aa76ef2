/// One gateway method as a type: the params it sends (``GatewayMethodParams``), the answer it reads back
/// and who may call it. A caller names the method once, by its params, and gets the answer typed, so a
/// method's name and the shape of its answer cannot drift apart at a call site.
public protocol GatewayMethod: GatewayMethodParams {
    /// What a successful answer means to the caller.
    associatedtype Response: Sendable
    /// Who the gateway lets call it.
    static var access: GatewayMethodAccess { get }
    /// The answer read from the response payload; nil when the payload is not this method's answer
    /// (the call then fails as an invalid response). An instance method: reading an answer may need what
    /// was asked (a gateway that leaves out the session key answered for the one requested).
    func response(from payload: JSONValue?) -> Response?
}

/// Who may call a gateway method.
public enum GatewayMethodAccess: Sendable, Hashable {
    /// An operator connection holding this scope (`operator.admin` satisfies every scope).
    case operatorScope(String)
    /// A connection with `role: node`.
    case node
}

/// The answer of a method whose payload the caller does not read: that it succeeded is the answer.
public struct GatewayAcknowledgement: Sendable, Hashable {
    public init() {}
}

extension GatewayMethod where Response == GatewayAcknowledgement {
    public func response(from payload: JSONValue?) -> GatewayAcknowledgement? { GatewayAcknowledgement() }
}
