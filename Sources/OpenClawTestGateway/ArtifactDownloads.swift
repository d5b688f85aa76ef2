import NIOCore
import NIOHTTP1
import OpenClawTestGatewayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The HTTP side of `artifacts.download`: `GET /api/chat/media/outgoing/<artifactId>?ticket=…` serves a
/// generated image's bytes to the holder of a live ticket for exactly that artifact (upstream's
/// "short-lived, exact-resource media URLs"), 404 otherwise.
///
/// The body is streamed in chunks without a `Content-Length`, so a client's size cap is exercised
/// while bytes arrive, not only against a header it could trust.
enum ArtifactDownloads {
    static let chunkBytes = 64 * 1024

    static func serve(_ http: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, hub: GatewayHub) async {
        try? await http.executeThenClose { inbound, outbound in
            var request: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let head): request = head
                case .body: break
                case .end:
                    guard let head = request else { return }
                    request = nil
                    try await answer(head, hub: hub, outbound: outbound)
                    guard head.isKeepAlive else { return }
                }
            }
        }
    }

    private static func answer(
        _ request: HTTPRequestHead, hub: GatewayHub, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        guard request.method == .GET, let (artifactId, ticket) = artifactAndTicket(request.uri),
            let artifact = await hub.artifactDownloadBody(artifactId: artifactId, ticket: ticket)
        else {
            let head = HTTPResponseHead(
                version: request.version, status: .notFound, headers: ["content-length": "0"])
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
            return
        }
        let head = HTTPResponseHead(
            version: request.version, status: .ok,
            headers: ["content-type": artifact.mimeType, "cache-control": "no-store"])
        try await outbound.write(.head(head))
        let bytes = artifact.bytes
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkBytes, bytes.count)
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes[offset..<end]))))
            offset = end
        }
        try await outbound.write(.end(nil))
    }

    /// The artifact id (one path segment after the prefix) and the `ticket` query parameter.
    static func artifactAndTicket(_ uri: String) -> (artifactId: String, ticket: String)? {
        guard let components = URLComponents(string: uri),
            components.path.hasPrefix(GatewayHub.artifactPathPrefix)
        else { return nil }
        let artifactId = String(components.path.dropFirst(GatewayHub.artifactPathPrefix.count))
        guard !artifactId.isEmpty, !artifactId.contains("/"),
            let ticket = components.queryItems?.first(where: { $0.name == "ticket" })?.value
        else { return nil }
        return (artifactId, ticket)
    }
}
