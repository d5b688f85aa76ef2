import NIOPosix

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension GatewayConnection {
    /// The body of `url` on the gateway's HTTP origin, fetched with this connection's certificate trust
    /// when its transport offers it (``LiveWebSocketTransport`` does), else with the system's.
    ///
    /// The caller decides which URLs are the gateway's own; this only fetches, capped at `limit` bytes
    /// and refusing redirects (see ``HTTPDownloading``).
    public nonisolated func download(
        _ url: URL, limit: Int, idleTimeout: Duration
    ) async throws(HTTPDownloadError) -> Data {
        let downloader =
            transport as? any HTTPDownloading
            ?? CappedHTTPGet(group: MultiThreadedEventLoopGroup.singleton, tlsTrust: nil)
        return try await downloader.download(url, limit: limit, idleTimeout: idleTimeout)
    }
}
