/// Which screen the app shows. One value, decided by ``AppModel``: the views never decide it.
public enum AppScreen: Sendable, Equatable {
    /// Reading the saved gateway (a moment at launch).
    case launching
    /// No gateway saved: the address form, and the demo.
    case onboarding
    /// The gateway wants this device approved: the command to run, and waiting for it.
    case pairing
    case chat
    /// Chatting with the in-process demo gateway.
    case demo
}
