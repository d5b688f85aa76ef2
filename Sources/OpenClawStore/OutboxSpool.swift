import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
/// A message's folder is named by a 128-bit hash of its gateway and id (the outbox's key: two gateways
/// may hold the same id; ids come from clients, and a hash is a safe, short file name whatever they are),
/// and holds one file per attachment, named by its position: the outbox row stores only names, types and
/// sizes, and the place of the bytes follows from the key. Folders are 0700, files 0600; files and folders
/// are fsynced before the row that names them is written.
struct OutboxSpool: Sendable {
    /// What a folder belongs to: an outbox row's key.
    struct Key: Hashable, Sendable {
        var gateway: String
        var id: String
    }

    /// Folders younger than this are left alone at open although no row names them yet: another process
    /// may be between its copy and its row.
    static let orphanGrace: TimeInterval = 600

    let directory: String

    init(databasePath: String) {
        directory = databasePath + "-outbox-files"
    }

    init(directory: String) {
        self.directory = directory
    }

    func folder(_ key: Key) -> String {
        directory + "/" + Self.name(key)
    }

    func file(_ key: Key, index: Int) -> String {
        folder(key) + "/\(index)"
    }

    /// Two independent 64-bit stable hashes of the gateway and the id, as 32 hex digits.
    static func name(_ key: Key) -> String {
        var first = StableHash()
        var second = StableHash(offset: 0x8422_2325_cbf2_9ce4)
        for part in [key.gateway, key.id] {
            first.combine(part)
            second.combine(part)
        }
        return first.hexDigest + second.hexDigest
    }

    /// Copies the message's attachments here (nothing to do without any), replacing an earlier copy;
    /// on failure nothing of the message's folder is left. Each file is read in chunks: a large file never
    /// sits in memory whole.
    func store(_ message: OutboxMessage) throws(StoreFile.Failure) {
        guard !message.attachments.isEmpty else { return }
        let key = Key(gateway: message.gateway, id: message.id)
        let folder = folder(key)
        do throws(StoreFile.Failure) {
            try StoreFile.makeDirectory(directory)
            try StoreFile.makeDirectory(folder)
            for (index, attachment) in message.attachments.enumerated() {
                let path = file(key, index: index)
                // This very file (a message read back from here and enqueued again): already in place.
                if case .file(let url) = attachment.source, url.path == path { continue }
                try copy(attachment, to: path)
            }
            Self.syncFolder(folder)
            Self.syncFolder(directory)
        } catch {
            remove(key)
            throw error
        }
    }

    /// Makes a folder's entries durable (a file fsynced in a folder that was not can vanish in a crash).
    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
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
            throw StoreFile.Failure(operation: "copy (\(error))", path: path, code: EIO)
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
    func attachment(_ key: Key, index: Int, fileName: String, mimeType: String, size: Int) -> Attachment {
        Attachment(
            id: "\(key.id)-\(index)", fileName: fileName, mediaType: MediaType(mimeType: mimeType), size: size,
            source: .file(URL(fileURLWithPath: file(key, index: index))))
    }

    /// The name of an attachment whose copy is not here with its size: a message missing one is never
    /// sent without it.
    func missingFile(of message: OutboxMessage) -> String? {
        let key = Key(gateway: message.gateway, id: message.id)
        for (index, attachment) in message.attachments.enumerated()
        where StoreFile.size(file(key, index: index)) != attachment.size {
            return attachment.fileName
        }
        return nil
    }

    /// The message folders present (their names, see ``name(_:)``).
    func folderNames() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    }

    func remove(_ key: Key) {
        try? FileManager.default.removeItem(atPath: folder(key))
    }

    /// Removes the folders no outbox row names (a crash between a copy and its row, or between a row's
    /// removal and its folder's), except recent ones (``orphanGrace``).
    func removeAll(except keys: Set<Key>, now: Date = Date()) {
        let kept = Set(keys.map(Self.name))
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !kept.contains(name) {
            let path = directory + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, now.timeIntervalSince(modified) < Self.orphanGrace { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
