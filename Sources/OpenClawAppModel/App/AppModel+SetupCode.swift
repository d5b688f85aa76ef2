import Foundation
import OpenClawGateway

/// Onboarding with a setup code (pasted, or scanned by the app's thin camera view).
extension AppModel {
    /// Pairs with the code's bootstrap token (its addresses in order, ``SetupCodePairing``) and opens the
    /// chat on the address that worked. What is saved is that address without any secret: the device
    /// token the gateway handed over signs in from then on, and the single-use code is spent. False
    /// with ``SettingsModel/setupCodeError`` set when it did not work.
    @discardableResult
    public func pair(withSetupCode text: String) async -> Bool {
        settings.setupCodeError = nil
        let code: SetupCode
        do {
            code = try SetupCode(parsing: text)
        } catch {
            settings.setupCodeError = error.description + " " + error.nextStep
            return false
        }
        isPairingWithCode = true
        defer { isPairingWithCode = false }
        let dependencies = self.dependencies
        let trace = debugFrames.sink
        do {
            let (url, _) = try await SetupCodePairing.pair(code) { url, credential, expected throws(GatewayError) in
                let connection = dependencies.makeConnection(
                    url: url, credential: credential, traceFrame: trace, expectedFingerprint: expected)
                do throws(GatewayError) {
                    let session = try await connection.connect()
                    await connection.disconnect()
                    return session
                } catch {
                    await connection.disconnect()
                    throw error
                }
            }
            let gateway = SavedGateway(url: url, credential: .none)
            do {
                try dependencies.credentials.save(gateway)
            } catch {
                settings.reportSaveFailure(error)
                return false
            }
            reloadGateways()
            notice = nil
            settings.load(gateway)
            await open(gateway)
            return true
        } catch {
            settings.setupCodeError = [error.message, error.nextStep].compactMap { $0 }.joined(separator: " ")
            return false
        }
    }
}
