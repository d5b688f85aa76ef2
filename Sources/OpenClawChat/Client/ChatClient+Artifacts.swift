import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ChatClient {
    /// Whether the connected gateway lists `artifacts.download` in `hello-ok.features.methods`.
    public var supportsArtifacts: Bool {
        get async {
            guard let session = await connection.session else { return false }
            return session.hello.features.methods.contains(GatewayMethodName.artifactsDownload)
        }
    }

    /// The bytes of a generated image (`artifactId` of an image block), for showing or saving now.
    ///
    /// Never stored: upstream asks clients to keep the reference, not the bytes or the short-lived URL
    /// (`gateway/clients.md`). Bounded to ``ArtifactLimits/maximumImageBytes`` (`limit`) whether the
    /// gateway sends them inline (base64, length checked before decoding) or as a URL (fetched only from
    /// the gateway's own origin, with the connection's certificate trust, cut off past the limit while
    /// it streams).
    public func artifactBytes(
        sessionKey: String, artifactId: String, limit: Int = ArtifactLimits.maximumImageBytes
    ) async throws(ArtifactFetchError) -> ArtifactImage {
        guard await supportsArtifacts else { throw .unsupported }
        let result: ArtifactsDownloadResult
        do throws(GatewayError) {
            result = try await connection.call(
                ArtifactsDownloadParams(sessionKey: sessionKey, artifactId: artifactId), timeout: timeouts.history)
        } catch {
            throw .gateway(error)
        }
        if let stated = result.sizeBytes, stated > limit { throw .tooLarge(limit: limit, received: 0) }
        switch result.payload {
        case .inline(let base64):
            // Base64 is 4 characters per 3 bytes: longer text decodes to more than the limit.
            guard base64.utf8.count <= (limit + 2) / 3 * 4 else { throw .tooLarge(limit: limit, received: 0) }
            guard let data = Data(base64Encoded: base64) else { throw .undecodable }
            return ArtifactImage(artifactId: result.artifactId, mimeType: result.mimeType, data: data)
        case .url(let text):
            let policy = ArtifactURLPolicy(gateway: connection.configuration.url)
            let url = try policy.resolve(text)
            // The longest silence allowed while connecting or streaming, not a bound on the whole fetch.
            let idleTimeout = max(.seconds(5), timeouts.history)
            let data: Data
            do throws(HTTPDownloadError) {
                data = try await connection.download(url, limit: limit, idleTimeout: idleTimeout)
            } catch {
                throw ArtifactFetchError(error, limit: limit, url: url, policy: policy)
            }
            return ArtifactImage(artifactId: result.artifactId, mimeType: result.mimeType, data: data)
        }
    }
}

/// A generated image's bytes, held in memory only for as long as the caller shows or saves them.
public struct ArtifactImage: Sendable, Hashable {
    public var artifactId: String
    public var mimeType: String?
    public var data: Data

    public init(artifactId: String, mimeType: String?, data: Data) {
        self.artifactId = artifactId
        self.mimeType = mimeType
        self.data = data
    }
}
