#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fetches one resource from the gateway's own HTTP origin with the same certificate trust as the
/// gateway's WebSocket: a pinned self-signed certificate is accepted here exactly as it is there.
///
/// ``LiveWebSocketTransport`` does; a transport that does not (a test double, the in-memory gateway) is
/// replaced by a GET that trusts the system's certificate store (`GatewayConnection.download`).
public protocol HTTPDownloading: Sendable {
    /// The body of `url` (a GET), refused once it grows past `limit` bytes, and after a silence longer
    /// than `idleTimeout`. Redirects are refused, not followed; nothing is cached or stored.
    func download(_ url: URL, limit: Int, idleTimeout: Duration) async throws(HTTPDownloadError) -> Data
}
