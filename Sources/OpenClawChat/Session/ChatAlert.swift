import OpenClawGateway

/// An error worth showing, with what to do about it.
public struct ChatAlert: Sendable, Equatable, Identifiable {
    /// What raised an alert. Code that acts on alerts (drops one once its problem is settled, say)
    /// decides by this, never by ``message``, whose wording is for people and may change.
    public enum Cause: Sendable, Equatable {
        /// A gateway or connection error, as the connection reported it.
        case gateway(GatewayError)
        /// The local store failed; until it works again the conversation is kept in memory only.
        case storeFailed
        /// The store declined to keep a queued message (too large, too many files): it is still sent
        /// while the app is open, but not across a relaunch.
        case messageNotKept

        /// A gateway's pairing refusal: settled for every such alert once the device is approved.
        public var isPairingRequired: Bool {
            guard case .gateway(.pairingRequired) = self else { return false }
            return true
        }
    }

    public let id: Int
    public let message: String
    public let nextStep: String?
    public let cause: Cause

    public init(id: Int, message: String, nextStep: String?, cause: Cause) {
        self.id = id
        self.message = message
        self.nextStep = nextStep
        self.cause = cause
    }
}
