import OpenClawGateway

/// How the test gateway answers `artifacts.download` (upstream answers both ways, by artifact kind).
public enum ArtifactDelivery: Sendable, Hashable {
    /// A short-lived, ticketed URL relative to the gateway (`download.mode: "url"`), as for managed
    /// generated images; the bytes are served over HTTP on the gateway's own port.
    case url
    /// Inline base64 (`download.mode: "bytes"`), as for byte-backed artifacts.
    case inline
}

/// The generated images runs produced, by `artifactId`, and the download tickets handed out for them.
struct ArtifactShelf: Sendable {
    struct Artifact: Sendable {
        let id: String
        let sessionKey: String
        let mimeType: String
        let bytes: [UInt8]
    }

    /// How long a download URL works (upstream: "short-lived").
    static let ticketLifetimeMs = 60_000

    private(set) var artifacts: [String: Artifact] = [:]
    private var tickets: [String: (artifactId: String, expiresAtMs: Int)] = [:]

    mutating func add(_ artifact: Artifact) {
        artifacts[artifact.id] = artifact
    }

    /// The artifact `id` if it belongs to `sessionKey`.
    func artifact(_ id: String, sessionKey: String) -> Artifact? {
        guard let artifact = artifacts[id], artifact.sessionKey == sessionKey else { return nil }
        return artifact
    }

    mutating func issueTicket(for id: String, nowMs: Int) -> (ticket: String, expiresAtMs: Int) {
        let ticket = RequestID.make().filter { $0 != "-" }
        let expiresAtMs = nowMs + Self.ticketLifetimeMs
        tickets[ticket] = (id, expiresAtMs)
        return (ticket, expiresAtMs)
    }

    /// The artifact a ticket was issued for, while it has not expired and only for that artifact.
    func redeem(ticket: String, artifactId: String, nowMs: Int) -> Artifact? {
        guard let entry = tickets[ticket], entry.artifactId == artifactId, entry.expiresAtMs > nowMs else {
            return nil
        }
        return artifacts[artifactId]
    }

    /// Deterministic bytes that start like a PNG file: what a scripted drawing "is".
    static func drawing(byteCount: Int) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard byteCount > signature.count else { return Array(signature.prefix(max(0, byteCount))) }
        // One fill, not a per-byte loop: a 13 MiB drawing must not cost seconds of CPU in a debug build.
        var bytes = [UInt8](repeating: 0x5A, count: byteCount)
        bytes.replaceSubrange(0..<signature.count, with: signature)
        return bytes
    }
}
