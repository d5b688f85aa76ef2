import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `login --code`: pairs this device with a setup code (``SetupCodePairing``: its addresses in order).
/// The certificate fingerprint in the code is trusted without asking for `wss://` addresses, but never
/// over a pin already stored for an address (that would be a mismatch, reported as such).
struct SetupCodeLogin {
    let global: GlobalOptions
    let terminal: Terminal

    /// The address that worked and the session on it.
    func run(_ code: SetupCode) async throws -> (url: GatewayURL, session: GatewaySession) {
        let global = self.global
        let terminal = self.terminal
        return try await SetupCodePairing.pair(code) { url, credential, expected throws(GatewayError) in
            var trust = global.certificateTrust
            trust.expectedFingerprint = trust.expectedFingerprint ?? expected
            let connection = global.makeConnection(
                url: url, credential: credential, terminal: terminal, trust: trust)
            do throws(GatewayError) {
                let session = try await global.connectTrusting(connection, terminal: terminal)
                await connection.disconnect()
                return session
            } catch {
                await connection.disconnect()
                throw error
            }
        } skipped: { url, error in
            // The address is the code's, the message may quote whatever answered there.
            let skipped = TerminalText.escapedLine("\(url): \(error.message)")
            terminal.errorLine(terminal.styled("\(skipped) Trying the next address…", .dim))
        }
    }
}
