import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which `Origin` headers the gateway admits at connect. A header means a browser, whatever the
/// client claims (`resolveHandshakeBrowserSecurityContext`: `enforceOriginCheckForAnyClient`); the
/// check then admits an origin that is configured (`gateway.controlUi.allowedOrigins`), and a
/// loopback origin (`localhost`, `127.x`, `::1`) on a connection that itself comes from loopback, as
/// upstream's origin check does for a page served on the gateway's own machine.
enum BrowserOriginPolicy {
    static func allows(_ origin: String, allowed: [String], fromLoopback: Bool) -> Bool {
        let trimmed = origin.trimming(.whitespaces)
        if trimmed.isEmpty || allowed.contains(trimmed) { return true }
        guard let host = URLComponents(string: trimmed)?.host, isLoopbackHost(host) else { return false }
        return fromLoopback
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        let bare = host.trimming(.scalars("[]")).lowercased()
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127.")
    }
}
