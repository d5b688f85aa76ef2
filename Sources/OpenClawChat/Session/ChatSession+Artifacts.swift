import OpenClawGateway
import OpenClawProtocol

/// A generated image in the loaded transcript: the row it belongs to and its `artifactId`. Numbered by
/// position among such images (1 is the oldest loaded), the number the terminal's `/save N` takes.
public struct ArtifactImageReference: Sendable, Hashable {
    public var number: Int
    public var entryID: TranscriptEntry.ID
    public var artifactId: String
    public var mimeType: String?
}

extension ChatSession {
    /// The generated images (image blocks with an `artifactId`) of the loaded rows, oldest first.
    public var artifactImages: [ArtifactImageReference] {
        var references: [ArtifactImageReference] = []
        for entry in messages {
            for part in entry.message?.content ?? [] {
                guard case .image(let media) = part, let artifactId = media.artifactId else { continue }
                references.append(
                    ArtifactImageReference(
                        number: references.count + 1, entryID: entry.id, artifactId: artifactId,
                        mimeType: media.mimeType))
            }
        }
        return references
    }

    /// The bytes of a generated image of this session, fetched now for showing inline or saving. Not
    /// kept (neither in memory here nor in the store): a view holds them while it shows them.
    public func artifactImage(_ artifactId: String) async -> Result<ArtifactImage, ArtifactFetchError> {
        do throws(ArtifactFetchError) {
            return .success(try await client.artifactBytes(sessionKey: currentSessionKey, artifactId: artifactId))
        } catch {
            return .failure(error)
        }
    }
}
