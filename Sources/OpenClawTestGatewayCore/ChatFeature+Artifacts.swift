import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Generated images: a run's `image` step, `artifacts.download`, and the ticketed HTTP route that
/// serves the bytes (summer 2026; `gateway/clients.md` "Render generated image artifacts").
extension ChatFeature {
    /// A run's generated image: stored under a new `artifactId` and appended to the reply as a
    /// canonical `image` block carrying the id, a gateway-relative `url`, its type, size and alt text.
    func runImage(_ runId: String, byteCount: Int, in gateway: isolated GatewayHub) -> Bool {
        guard var run = runs.removeValue(forKey: runId) else { return false }
        let artifactId = "img_\(GatewayHub.entryId())"
        let bytes = ArtifactShelf.drawing(byteCount: max(0, byteCount))
        artifacts.add(.init(id: artifactId, sessionKey: run.sessionKey, mimeType: "image/png", bytes: bytes))
        run.draft.appendBlock([
            "type": "image", "artifactId": .string(artifactId), "url": .string(Self.artifactPath(artifactId)),
            "mimeType": "image/png", "sizeBytes": .int(bytes.count), "alt": "A scripted drawing",
        ])
        runs[runId] = run
        return true
    }

    static func artifactPath(_ artifactId: String) -> String {
        GatewayHub.artifactPathPrefix + artifactId
    }

    /// `artifacts.download`: `{artifact, url, expiresAt}` with a ticketed URL on this gateway, or
    /// `{artifact, encoding: "base64", data}`, as ``TestGatewayConfiguration/artifactDelivery`` says.
    /// Without a `sessionKey` (this gateway keeps no run or task index) or for an artifact of another
    /// session: refused as upstream does.
    func handleArtifactsDownload(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.artifactsDownloadParams, from: id),
            let artifactId = params["artifactId"]?.stringValue
        else { return }
        guard let sessionKey = params["sessionKey"]?.stringValue else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(
                    code: .invalidRequest, message: "artifacts require one of sessionKey, runId, or taskId",
                    details: ["type": "artifact_query_unsupported"]))
            return
        }
        guard let artifact = artifacts.artifact(artifactId, sessionKey: SessionStore.canonicalKey(sessionKey)) else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(
                    code: .invalidRequest, message: "artifact not found",
                    details: ["type": "artifact_not_found", "artifactId": .string(artifactId)]))
            return
        }
        var summary: [String: JSONValue] = [
            "id": .string(artifact.id), "type": "image", "title": "Generated image",
            "mimeType": .string(artifact.mimeType), "sizeBytes": .int(artifact.bytes.count),
            "sessionKey": .string(artifact.sessionKey), "source": "session-transcript",
        ]
        if !gateway.configuration.artifactStatesSize { summary["sizeBytes"] = nil }
        switch gateway.configuration.artifactDelivery {
        case .inline:
            summary["download"] = ["mode": "bytes"]
            gateway.respond(
                to: id, requestId: request.id,
                payload: [
                    "artifact": .object(summary), "encoding": "base64",
                    "data": .string(Data(artifact.bytes).base64EncodedString()),
                ])
        case .url:
            summary["download"] = ["mode": "url"]
            let (ticket, expiresAtMs) = artifacts.issueTicket(for: artifact.id, nowMs: GatewayHub.nowMs())
            let url = gateway.configuration.artifactURLOverride ?? Self.artifactPath(artifact.id) + "?ticket=" + ticket
            gateway.respond(
                to: id, requestId: request.id,
                payload: ["artifact": .object(summary), "url": .string(url), "expiresAt": .int(expiresAtMs)])
        }
    }

    /// The bytes the HTTP route serves for `artifactId` with `ticket`; nil (404) for an unknown,
    /// expired or mismatched ticket, and whenever the gateway has no artifacts (quirk).
    func artifactDownloadBody(
        artifactId: String, ticket: String, in gateway: isolated GatewayHub
    ) -> (mimeType: String, bytes: [UInt8])? {
        guard !gateway.configuration.quirks.contains(.noArtifacts),
            let artifact = artifacts.redeem(ticket: ticket, artifactId: artifactId, nowMs: GatewayHub.nowMs())
        else { return nil }
        return (artifact.mimeType, artifact.bytes)
    }
}

extension GatewayHub {
    /// The path prefix of managed outgoing media on the gateway's HTTP port (upstream's
    /// `/api/chat/media/outgoing/…`).
    package static let artifactPathPrefix = "/api/chat/media/outgoing/"

    /// The bytes the HTTP route serves for `artifactId` with `ticket` (see `ChatFeature`).
    package func artifactDownloadBody(artifactId: String, ticket: String) -> (mimeType: String, bytes: [UInt8])? {
        chat.artifactDownloadBody(artifactId: artifactId, ticket: ticket, in: self)
    }
}
