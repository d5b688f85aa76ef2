import OpenClawTestGateway
import Testing

/// The gateway dialects a chat client must handle: v3 (cumulative `message` deltas) and v4 with and
/// without the `message` snapshot on deltas (late gateways send `deltaText` only).
struct GatewayFlavor: Sendable, CustomTestStringConvertible {
    let protocolNumber: Int
    let deltas: V4DeltaStyle

    static let v3 = GatewayFlavor(protocolNumber: 3, deltas: .withMessage)
    static let v4WithMessage = GatewayFlavor(protocolNumber: 4, deltas: .withMessage)
    static let v4WithoutMessage = GatewayFlavor(protocolNumber: 4, deltas: .withoutMessage)

    static let all = [v3, v4WithMessage, v4WithoutMessage]
    /// Where the delta style does not matter: one gateway per protocol version.
    static let versions = [v3, v4WithMessage]

    var testDescription: String {
        protocolNumber < 4 ? "v3" : deltas == .withMessage ? "v4 deltas with message" : "v4 deltas without message"
    }

    func configuration(agent: ScriptedAgent = ScriptedAgent()) -> TestGatewayConfiguration {
        TestGatewayConfiguration(protocolNumber: protocolNumber, v4Deltas: deltas, agent: agent)
    }
}
