import OpenClawGateway

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a one-shot command (send, history, sessions, status, login) gets its connection: one attempt,
/// except that a gateway rate-limiting sign-ins is waited out once when it said for how long and that
/// is short; and a word on stderr when this device's saved token stood in for a refused one.
enum OneShotConnect {
    /// The longest told wait a one-shot command sits through; a longer one is reported instead.
    static let longestWait: Duration = .seconds(30)

    /// - Parameter attempt: one connect attempt (by default `connection.connect()`; the CLI passes the
    ///   one that asks to pin a new TLS certificate).
    static func connect(
        _ connection: GatewayConnection, terminal: Terminal,
        attempt: (GatewayConnection) async throws(GatewayError) -> GatewaySession = plainConnect
    ) async throws -> GatewaySession {
        var session: GatewaySession?
        var refusal: GatewayError?
        do {
            session = try await attempt(connection)
        } catch {
            refusal = error
        }
        if let refusal {
            guard let wait = toldWait(refusal) else { throw refusal }
            terminal.errorLine(
                terminal.styled(
                    "The gateway is refusing sign-ins from this address for \(Int(wait.components.seconds)) s "
                        + "(too many failed attempts); waiting, then trying once more.", .dim))
            try await Task.sleep(for: wait)
            session = try await attempt(connection)
        }
        await noteSavedDeviceToken(connection, terminal: terminal)
        guard let session else { throw GatewayError.notConnected }
        return session
    }

    static func plainConnect(_ connection: GatewayConnection) async throws(GatewayError) -> GatewaySession {
        try await connection.connect()
    }

    /// The wait worth sitting through: a rate limit whose end the gateway named, and soon.
    static func toldWait(_ error: GatewayError) -> Duration? {
        guard case .authFailed(let failure) = error, failure.retryAfterMs != nil,
            let wait = failure.rateLimitWait, wait <= longestWait
        else { return nil }
        return wait
    }

    /// Says so when the configured token was refused and this device's saved token was accepted instead:
    /// it works today, but the configured token is wrong and the saved one can be revoked.
    static func noteSavedDeviceToken(_ connection: GatewayConnection, terminal: Terminal) async {
        guard await connection.signedInWithSavedDeviceToken else { return }
        terminal.errorLine(terminal.styled(savedDeviceTokenNotice, .yellow))
    }

    static let savedDeviceTokenNotice =
        "The gateway refused the configured token; signed in with this device's saved token instead. "
        + "Fix the token (--token, OPENCLAW_GATEWAY_TOKEN or 'openclaw-chat login') before that one is revoked."
}
