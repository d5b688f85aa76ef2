import NIOCore
import NIOHTTP1
import OpenClawTestGatewayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The HTTP side of `artifacts.download`: `GET` (or `HEAD`) `/api/chat/media/outgoing/<artifactId>?ticket=…` serves a
/// generated image's bytes to the holder of a live ticket for exactly that artifact (upstream's
/// "short-lived, exact-resource media URLs"), 404 otherwise.
///
/// The body is written in chunks without a `Content-Length`, so a client's size cap is exercised while
/// bytes arrive, not only against a header it could trust. A handler on the event loop rather than an
/// async channel: a connection that is not kept alive is closed once the last byte was written, which
/// the async writer cannot tell (closing after its last `write` cut bodies short under load).
final class ArtifactDownloads: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let chunkBytes = 64 * 1024

    private let hub: GatewayHub
    private var request: HTTPRequestHead?

    init(hub: GatewayHub) { self.hub = hub }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break
        case .end:
            guard let head = request else { return }
            request = nil
            answer(head, context: context)
        }
    }

    private func answer(_ request: HTTPRequestHead, context: ChannelHandlerContext) {
        let hub = self.hub
        let found = Self.artifactAndTicket(request.uri)
        let lookup = context.eventLoop.makeFutureWithTask { () -> (mimeType: String, bytes: [UInt8])? in
            guard request.method == .GET || request.method == .HEAD, let (artifactId, ticket) = found else {
                return nil
            }
            return await hub.artifactDownloadBody(artifactId: artifactId, ticket: ticket)
        }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        lookup.whenComplete { result in
            let (handler, context) = bound.value
            handler.respond(to: request, with: (try? result.get()) ?? nil, context: context)
        }
    }

    private func respond(
        to request: HTTPRequestHead, with artifact: (mimeType: String, bytes: [UInt8])?, context: ChannelHandlerContext
    ) {
        var headers: HTTPHeaders =
            artifact.map { ["content-type": $0.mimeType, "cache-control": "no-store"] }
            ?? ["content-length": "0"]
        // HTTP/1.0 has no chunked encoding: its body ends with the connection, whatever it asked for.
        let keepAlive = request.isKeepAlive && (request.version.major, request.version.minor) >= (1, 1)
        if !keepAlive { headers.add(name: "connection", value: "close") }
        let head = HTTPResponseHead(
            version: request.version, status: artifact == nil ? .notFound : .ok, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        // A HEAD gets the GET's head alone (NIO's encoder knows the request's method and frames it so).
        let bytes = request.method == .HEAD ? [] : artifact?.bytes ?? []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.chunkBytes, bytes.count)
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes[offset..<end])))),
                promise: nil)
            offset = end
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        guard !keepAlive else { return }
        let channel = context.channel
        written.whenComplete { _ in channel.close(promise: nil) }
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
