/// Why a gateway asks for this device to be approved (`details.reason` of a `PAIRING_REQUIRED`
/// refusal). Open, like ``ErrorDetailCode``: an unknown reason is kept as it came.
public struct PairingReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// A device the gateway has never approved (or with another key).
    public static let notPaired: PairingReason = "not-paired"
    /// An approved device whose platform or device family changed (an OS update): never approved
    /// silently, even on loopback.
    public static let metadataUpgrade: PairingReason = "metadata-upgrade"
    public static let roleUpgrade: PairingReason = "role-upgrade"
    public static let scopeUpgrade: PairingReason = "scope-upgrade"
}
