/// `artifacts.download` (summer 2026): the bytes of one transcript artifact (a generated image), asked
/// for by the session it belongs to. Only fields every upstream `ArtifactsDownloadParamsSchema` has
/// (`artifactId` plus the `sessionKey`/`agentId` scope); the schema is closed.
public struct ArtifactsDownloadParams: GatewayMethodParams, Hashable {
    public static let method = GatewayMethodName.artifactsDownload

    public var sessionKey: String
    /// The `artifactId` of the image block.
    public var artifactId: String
    /// The agent owning the session, where the session key alone does not say.
    public var agentId: String?

    public init(sessionKey: String, artifactId: String, agentId: String? = nil) {
        self.sessionKey = sessionKey
        self.artifactId = artifactId
        self.agentId = agentId
    }

    public var json: JSONValue {
        .object(dropping: [
            ("sessionKey", .string(sessionKey)), ("artifactId", .string(artifactId)),
            ("agentId", .string(agentId.flatMap { $0.isEmpty ? nil : $0 })),
        ])
    }
}

/// The answer to `artifacts.download`: the artifact's summary with either its bytes inline (base64,
/// `download.mode: "bytes"`) or a short-lived URL (`download.mode: "url"`, relative to the gateway for
/// managed images, with `expiresAt` on later builds).
public struct ArtifactsDownloadResult: Sendable, Hashable {
    /// Where the bytes are.
    public enum Payload: Sendable, Hashable {
        /// Base64 text, not yet decoded (decoding is bounded by the caller).
        case inline(base64: String)
        case url(String)
    }

    public var artifactId: String
    public var mimeType: String?
    /// The size the gateway states; a claim to check, not a fact.
    public var sizeBytes: Int?
    public var payload: Payload
    /// When the URL stops working (ms since 1970), where the gateway says.
    public var expiresAtMs: Int?

    public init(artifactId: String, mimeType: String?, sizeBytes: Int?, payload: Payload, expiresAtMs: Int? = nil) {
        self.artifactId = artifactId
        self.mimeType = mimeType
        self.sizeBytes = sizeBytes
        self.payload = payload
        self.expiresAtMs = expiresAtMs
    }

    /// Nil when the payload is not `{artifact: {id, …}, data | url}`: a download without either (an
    /// `unsupported` artifact answered as success) is no answer a client can use.
    public init?(json: JSONValue?) {
        guard let json, let artifact = json["artifact"], let id = artifact["id"]?.nonEmptyStringValue else {
            return nil
        }
        let payload: Payload
        if let data = json["data"]?.stringValue, json["encoding"]?.stringValue ?? "base64" == "base64" {
            payload = .inline(base64: data)
        } else if let url = json["url"]?.nonEmptyStringValue {
            payload = .url(url)
        } else {
            return nil
        }
        self.init(
            artifactId: id, mimeType: artifact["mimeType"]?.nonEmptyStringValue,
            sizeBytes: artifact["sizeBytes"]?.intValue, payload: payload, expiresAtMs: json["expiresAt"]?.intValue)
    }
}

extension GatewayMethodName {
    /// Summer 2026: one transcript artifact's bytes or a short-lived URL for them.
    public static let artifactsDownload = "artifacts.download"
}
