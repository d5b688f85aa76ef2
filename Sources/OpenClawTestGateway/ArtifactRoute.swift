import Hummingbird
import NIOCore
import OpenClawTestGatewayCore

/// The HTTP side of `artifacts.download`: `GET /api/chat/media/outgoing/<artifactId>?ticket=…` serves a
/// generated image's bytes to the holder of a live ticket for exactly that artifact (upstream's
/// "short-lived, exact-resource media URLs"), 404 otherwise.
///
/// The body is streamed in chunks without a `Content-Length`, so a client's size cap is exercised
/// while bytes arrive, not only against a header it could trust.
enum ArtifactRoute {
    static let chunkBytes = 64 * 1024

    static func add(to router: Router<BasicRequestContext>, hub: GatewayHub) {
        router.get("\(GatewayHub.artifactPathPrefix):artifactId") { request, context -> Response in
            guard let artifactId = context.parameters.get("artifactId"),
                let ticket = request.uri.queryParameters.get("ticket"),
                let artifact = await hub.artifactDownloadBody(artifactId: artifactId, ticket: ticket)
            else { return Response(status: .notFound) }
            let bytes = artifact.bytes
            return Response(
                status: .ok, headers: [.contentType: artifact.mimeType, .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    var offset = 0
                    while offset < bytes.count {
                        let end = min(offset + chunkBytes, bytes.count)
                        try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                        offset = end
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
