#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LiveWebSocketTransport: HTTPDownloading {
    /// A GET on the transport's event loops with its certificate trust (see ``HTTPDownloading``).
    public func download(_ url: URL, limit: Int, idleTimeout: Duration) async throws(HTTPDownloadError) -> Data {
        try await CappedHTTPGet(group: group, tlsTrust: tlsTrust).download(url, limit: limit, idleTimeout: idleTimeout)
    }
}
