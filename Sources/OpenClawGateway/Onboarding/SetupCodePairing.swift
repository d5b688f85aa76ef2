/// Pairing with a setup code: its addresses are tried in order, and only while nothing answers.
///
/// An address that cannot be reached (DNS, refused, timed out) moves on to the next one. Any other
/// failure ends the pairing: the bootstrap token is single-use, and a gateway that answered has decided.
/// The terminal's `login --code` and the app's "paste a setup code" both pair through this.
public enum SetupCodePairing {
    /// One attempt at `url` with the code's bootstrap token; `expectedFingerprint` is the code's
    /// certificate fingerprint (for `wss://`), which must never override a pin already stored.
    public typealias Attempt =
        @Sendable (_ url: GatewayURL, _ credential: GatewayCredential, _ expectedFingerprint: TLSFingerprint?)
        async throws(GatewayError) -> GatewaySession

    /// The address that worked and the session on it. `skipped` hears of each unreachable address
    /// before the next is tried.
    public static func pair(
        _ code: SetupCode,
        attempt: Attempt,
        skipped: (GatewayURL, GatewayError) -> Void = { _, _ in }
    ) async throws(GatewayError) -> (url: GatewayURL, session: GatewaySession) {
        var lastError = GatewayError.notConnected
        for url in code.urls {
            do {
                let session = try await attempt(url, .bootstrapToken(code.bootstrapToken), code.tlsFingerprint)
                return (url, session)
            } catch {
                guard isUnreachable(error), url != code.urls.last else { throw error }
                skipped(url, error)
                lastError = error
            }
        }
        throw lastError
    }

    /// Nothing answered at that address, so the code was not used there.
    public static func isUnreachable(_ error: GatewayError) -> Bool {
        switch error {
        case .transport(.hostNotFound), .transport(.connectionRefused), .transport(.timedOut): true
        default: false
        }
    }
}
