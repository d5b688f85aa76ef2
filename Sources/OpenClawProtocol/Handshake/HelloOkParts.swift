/// Parts of `hello-ok` a gateway may leave out, with the protocol default used in their place.
public struct HelloOkParts: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `server` (version and connection id): the version reads "unknown".
    public static let server = HelloOkParts(rawValue: 1 << 0)
    /// `features`: no method or event list, so nothing is assumed missing.
    public static let features = HelloOkParts(rawValue: 1 << 1)
    /// `policy.maxPayload`: 25 MiB.
    public static let maxPayload = HelloOkParts(rawValue: 1 << 2)
    /// `policy.tickIntervalMs`: 30 s.
    public static let tickInterval = HelloOkParts(rawValue: 1 << 3)
    /// `snapshot.stateVersion`: presence and health version 0.
    public static let stateVersion = HelloOkParts(rawValue: 1 << 4)

    /// Every part, with the name `status` prints for it.
    public static let named: [(part: HelloOkParts, name: String)] = [
        (.server, "server"), (.features, "features"), (.maxPayload, "policy.maxPayload"),
        (.tickInterval, "policy.tickIntervalMs"), (.stateVersion, "snapshot.stateVersion"),
    ]

    /// The names of the parts in this set, in a fixed order.
    public var names: [String] { Self.named.filter { contains($0.part) }.map(\.name) }

    /// The parts `payload` does not carry in a readable form.
    static func missing(in payload: JSONValue) -> HelloOkParts {
        var missing: HelloOkParts = []
        if payload["server"]?.objectValue == nil || payload["server"]?["version"]?.nonEmptyStringValue == nil {
            missing.insert(.server)
        }
        if payload["features"]?.objectValue == nil { missing.insert(.features) }
        if HelloOk.Policy.positive(payload["policy"]?["maxPayload"]) == nil { missing.insert(.maxPayload) }
        if HelloOk.Policy.positive(payload["policy"]?["tickIntervalMs"]) == nil { missing.insert(.tickInterval) }
        if StateVersion(json: payload["snapshot"]?["stateVersion"]) == nil { missing.insert(.stateVersion) }
        return missing
    }
}
