import Foundation
import Observation
import OpenClawChat
import OpenClawProtocol

/// The files waiting in the composer to go with the next message: what the photo picker and the file
/// importer hand over, checked against the gateway's limits the moment they are chosen, so a photo too
/// large is refused with its size and the limit before anything is typed, let alone sent.
///
/// Picked photos arrive as bytes (the picker's transferable data); imported files stay on disk until
/// sent. Images in memory keep their bytes for the thumbnail; the view decodes them.
@MainActor
@Observable
public final class ComposerAttachments {
    /// One chosen file, as the composer shows it.
    public struct Draft: Sendable, Identifiable, Hashable {
        public let attachment: Attachment
        public var id: String { attachment.id }
        /// `[image: photo.heic, 2.1 MB]`: the words the transcript uses for a sent file.
        public var label: String { AttachmentRow(local: attachment.summary).label }
        public var isImage: Bool { attachment.mediaType.isImage }
        /// The image's bytes for a thumbnail; nil for files, and for images read from disk when sent.
        public var thumbnailBytes: [UInt8]? {
            guard isImage, case .bytes(let bytes) = attachment.source else { return nil }
            return bytes
        }
    }

    public private(set) var drafts: [Draft] = []
    /// Why the last file chosen was refused (its name, its size, the limit); cleared by the next choice.
    public private(set) var refusal: String?

    private let limits: @MainActor () async -> AttachmentLimits

    /// `limits`: what the gateway accepts now (`ChatSession.attachmentLimits()`).
    public init(limits: @escaping @MainActor () async -> AttachmentLimits) {
        self.limits = limits
    }

    public var isEmpty: Bool { drafts.isEmpty }

    /// The name a picked photo is sent under. The picker hands over bytes and a content type, never a
    /// name, so the name says what it is and when it was picked, and the photos of different messages do
    /// not share names: `photo-<seconds since 1970>-<1-based position>.<extension>`, `jpg` when the
    /// content type has no extension.
    public nonisolated static func photoFileName(pickedAt date: Date, index: Int, fileExtension: String?) -> String {
        let fileExtension = fileExtension.flatMap { $0.isEmpty ? nil : $0 } ?? "jpg"
        return "photo-\(Int(date.timeIntervalSince1970))-\(index + 1).\(fileExtension)"
    }

    /// A photo from the picker. `declaredMimeType` (the picker's content type) counts only where the
    /// bytes say nothing more specific.
    public func attach(bytes: [UInt8], fileName: String, declaredMimeType: String? = nil) async {
        await add(
            Attachment(bytes: bytes, fileName: fileName, declaredType: declaredMimeType.map(MediaType.init(mimeType:))))
    }

    /// A file from the importer. Outside the app's sandbox, access ends with the importer's callback, so
    /// the app hands over its own copy (in its temporary folder), read when the message is sent.
    public func attach(fileAt url: URL) async {
        do {
            await add(try Attachment.file(at: url))
        } catch {
            refusal = error.description
        }
    }

    /// A file the app could not take (its copy failed): said like any refusal.
    public func refuse(_ error: AttachmentError) {
        refusal = error.description
    }

    public func remove(_ id: String) {
        drafts.removeAll { $0.id == id }
    }

    public func dismissRefusal() { refusal = nil }

    /// Hands the files over for sending and empties the composer's list.
    func take() -> [Attachment] {
        defer { drafts = [] }
        return drafts.map(\.attachment)
    }

    /// Puts files back after a send that refused them (limits changed since they were chosen).
    func restore(_ attachments: [Attachment], refusal: AttachmentError) {
        drafts = attachments.map(Draft.init(attachment:))
        self.refusal = refusal.description
    }

    private func add(_ attachment: Attachment) async {
        do {
            try await limits().check(attachment)
            drafts.append(Draft(attachment: attachment))
            refusal = nil
        } catch {
            refusal = error.description
        }
    }
}
