/// `sessions.reset {key}`: the session starts afresh (a new transcript; its settings stay). Needs
/// `operator.admin`. Later gateways also take `reason: "new" | "reset"`, but earlier ones close the
/// params to `{key}` and would refuse it, and both reasons reset the same way: it is never sent.
public struct SessionResetParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.sessionsReset

    public var key: String

    public init(key: String) {
        self.key = key
    }

    public var json: JSONValue { .object(["key": .string(key)]) }
}
