import Foundation
import OpenClawGateway
import OpenClawProtocol

/// `login --code`: pairs this device with a setup code, trying the code's addresses in order.
///
/// An address that cannot be reached (DNS, refused, timed out) moves on to the next one. Any other
/// failure ends the login: the bootstrap token is single-use, and a gateway that answered has decided.
/// The certificate fingerprint in the code is trusted without asking for `wss://` addresses, but never
/// over a pin already stored for an address (that would be a mismatch, reported as such).
struct SetupCodeLogin {
    let global: GlobalOptions
    let terminal: Terminal

    /// The address that worked and the session on it.
    func run(_ code: SetupCode) async throws -> (url: GatewayURL, session: GatewaySession) {
        var lastError: GatewayError?
        for url in code.urls {
            var trust = global.tlsTrust
            trust.expectedFingerprint = trust.expectedFingerprint ?? code.tlsFingerprint
            let connection = global.makeConnection(
                url: url, credential: .bootstrapToken(code.bootstrapToken), terminal: terminal, tlsTrust: trust)
            do {
                let session = try await global.connectTrusting(connection, terminal: terminal)
                await connection.disconnect()
                return (url, session)
            } catch {
                await connection.disconnect()
                guard Self.isUnreachable(error), url != code.urls.last else { throw error }
                terminal.errorLine(terminal.styled("\(url): \(error.message) Trying the next address…", .dim))
                lastError = error
            }
        }
        throw lastError ?? GatewayError.notConnected
    }

    /// Nothing answered at that address, so the code was not used there.
    static func isUnreachable(_ error: GatewayError) -> Bool {
        switch error {
        case .transport(.hostNotFound), .transport(.connectionRefused), .transport(.timedOut): true
        default: false
        }
    }
}
