import Foundation
import OpenClawGateway

/// Trust on first use for a self-signed `wss://` gateway, the app's version of the terminal's prompt.
extension AppModel {
    /// The connection met a certificate it cannot vouch for: ask (the chat's banner shows the error
    /// meanwhile, and nothing reconnects until the person decides).
    func askToTrust(_ certificate: TLSPeerCertificate, host: String, url: GatewayURL) {
        certificateTrust = CertificateTrustRequest(url: url, host: host, certificate: certificate)
    }

    /// The person compared the fingerprint and trusts it: pinned for this endpoint, then reconnect.
    public func trustCertificate() async {
        guard let request = certificateTrust else { return }
        certificateTrust = nil
        do {
            try dependencies.tlsPinStore.trust(request.certificate, for: request.url)
        } catch {
            notice = "The certificate could not be remembered on this device (\(error.reason))."
            return
        }
        await context?.connection.reconnectNow()
    }

    /// Not trusted: nothing is pinned; the chat's banner keeps saying why it cannot connect.
    public func declineCertificate() {
        certificateTrust = nil
    }
}
