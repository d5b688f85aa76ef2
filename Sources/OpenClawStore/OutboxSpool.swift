import Foundation
import OpenClawChat
import OpenClawProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of outbox messages, copied beside the database (`<path>-outbox-files/`), so that a message
/// with a photo waits for delivery across restarts like any other.
///
/// Copies, not references: the file the person picked may be a screenshot in a temporary folder, a
/// photo the picker handed over as bytes, or a document edited after sending; what is delivered later
/// must be what was sent. Outside the database because a database holding 20 MB blobs would be slow to
/// read and to salvage, and because the files must outlive a damaged database (its journal brings the
/// outbox back, and the files are still here). The total is bounded
/// (``ChatStoreLimits/maxOutboxAttachmentBytes``); a message's folder goes when the message leaves the
/// outbox, and folders no outbox message names are removed when the store opens.
///
/// A message's folder is named by the hex of its id (ids come from clients; hex keeps any id a safe
/// file name), and holds one file per attachment, named by its position: the outbox row stores only
/// names, types and sizes, and the place of the bytes follows from the id. Folders are 0700, files 0600.
struct OutboxSpool: Sendable {
    let directory: String

    init(databasePath: String) {
        directory = databasePath + "-outbox-files"
    }

    init(directory: String) {
        self.directory = directory
    }

    func folder(messageId: String) -> String {
        directory + "/" + messageId.utf8.map { String(format: "%02x", $0) }.joined()
    }

    func file(messageId: String, index: Int) -> String {
        folder(messageId: messageId) + "/\(index)"
    }

    /// Copies the message's attachments here (nothing to do without any), replacing an earlier copy.
    /// Each file is read in chunks: a large file never sits in memory whole.
    func store(_ message: OutboxMessage) throws(StoreFile.Failure) {
        guard !message.attachments.isEmpty else { return }
        let folder = folder(messageId: message.id)
        try StoreFile.makeDirectory(directory)
        try StoreFile.makeDirectory(folder)
        for (index, attachment) in message.attachments.enumerated() {
            let path = file(messageId: message.id, index: index)
            // A copy of this very file (a message read back from here and enqueued again): already in place.
            if case .file(let url) = attachment.source, url.path == path { continue }
            try copy(attachment, to: path)
        }
    }

    private func copy(_ attachment: Attachment, to path: String) throws(StoreFile.Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreFile.Failure(operation: "create", path: path, code: errno) }
        defer { close(descriptor) }
        var writeFailure: StoreFile.Failure?
        let copied: Int
        do {
            copied = try attachment.outgoing.source.readChunks { chunk throws(AttachmentError) in
                guard writeFailure == nil else { return }
                do throws(StoreFile.Failure) {
                    try StoreFile.writeAll(chunk, to: descriptor, path: path)
                } catch {
                    writeFailure = error
                }
            }
        } catch {
            unlink(path)
            throw StoreFile.Failure(operation: "read \(attachment.fileName)", path: path, code: EIO)
        }
        if let writeFailure {
            unlink(path)
            throw writeFailure
        }
        guard copied == attachment.size else {
            unlink(path)
            throw StoreFile.Failure(operation: "copy \(attachment.fileName) (its size changed)", path: path, code: EIO)
        }
        guard fsync(descriptor) == 0 else { throw StoreFile.Failure(operation: "fsync", path: path, code: errno) }
    }

    /// The attachment as the outbox row describes it, its bytes read from here when it is sent.
    func attachment(messageId: String, index: Int, fileName: String, mimeType: String, size: Int) -> Attachment {
        Attachment(
            id: "\(messageId)-\(index)", fileName: fileName, mediaType: MediaType(mimeType: mimeType), size: size,
            source: .file(URL(fileURLWithPath: file(messageId: messageId, index: index))))
    }

    /// Whether every attachment's copy is here with its size: a message missing one is never sent
    /// without it.
    func missingFile(of message: OutboxMessage) -> String? {
        for (index, attachment) in message.attachments.enumerated()
        where StoreFile.size(file(messageId: message.id, index: index)) != attachment.size {
            return attachment.fileName
        }
        return nil
    }

    func remove(messageId: String) {
        try? FileManager.default.removeItem(atPath: folder(messageId: messageId))
    }

    /// Removes the folders of messages no longer in the outbox (a crash between the row's removal and
    /// its folder's).
    func removeAll(except messageIds: Set<String>) {
        let kept = Set(messageIds.map { URL(fileURLWithPath: folder(messageId: $0)).lastPathComponent })
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !kept.contains(name) {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Bytes held for messages other than `excluding`.
    func totalBytes(of messages: [OutboxMessage], excluding id: String) -> Int {
        messages.filter { $0.id != id }.reduce(0) { $0 + $1.attachments.reduce(0) { $0 + $1.size } }
    }
}
