import Crypto
import OpenClawGateway
import OpenClawProtocol

/// What `system.execApprovals.get` answers: `{path, exists, hash, file}` (the closed
/// `ExecApprovalsSnapshot` shape). `hash` is the SHA-256 of the file's bytes, the `baseHash` a writer
/// must present.
public struct ExecApprovalsSnapshot: Sendable, Hashable {
    public var path: String
    public var exists: Bool
    public var hash: String
    public var file: ExecApprovalsFile

    public init(path: String, exists: Bool, hash: String, file: ExecApprovalsFile) {
        self.path = path
        self.exists = exists
        self.hash = hash
        self.file = file
    }

    public var json: JSONValue {
        ["path": .string(path), "exists": .bool(exists), "hash": .string(hash), "file": file.json]
    }
}

/// The approvals file on disk: read, and replaced only by compare-and-set.
///
/// Written with mode 0600 and replaced atomically (temporary file, fsync, rename), because it decides
/// what runs on this machine and may hold the approval socket's token. A file that cannot be read or
/// parsed is reported, never replaced by defaults: ``policy()`` then denies everything.
public struct ExecApprovalsStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public static let fileName = "exec-approvals.json"

    /// The largest file read; a bigger one is damaged or hostile.
    public static let maxBytes = 1024 * 1024

    public func snapshot() throws(ExecApprovalsError) -> ExecApprovalsSnapshot {
        let bytes: [UInt8]?
        do {
            bytes = try SecureFile.read(path)
        } catch {
            throw .storage(error.description)
        }
        guard let bytes else {
            return ExecApprovalsSnapshot(path: path, exists: false, hash: Self.hash([]), file: ExecApprovalsFile())
        }
        guard bytes.count <= Self.maxBytes else { throw .invalidFile("larger than \(Self.maxBytes) bytes") }
        let json: JSONValue
        do {
            json = try JSONParser(maxDepth: 32).parse(bytes)
        } catch {
            throw .invalidFile("not JSON (\(error))")
        }
        return ExecApprovalsSnapshot(
            path: path, exists: true, hash: Self.hash(bytes), file: try ExecApprovalsFile(json: json))
    }

    /// The policy to enforce now. An unreadable file yields nil: the caller denies.
    public func policy(home: String?) -> ExecPolicy? {
        guard let snapshot = try? snapshot() else { return nil }
        return ExecPolicy(file: snapshot.file, home: home)
    }

    /// Replaces the file if it is still the one the caller read: `baseHash` must equal the current
    /// hash (required once the file exists). Returns the new snapshot. The compare and the write
    /// happen under one lock, so of two writers holding the same hash exactly one succeeds.
    @discardableResult
    public func set(_ file: ExecApprovalsFile, baseHash: String?) throws(ExecApprovalsError) -> ExecApprovalsSnapshot {
        try ExclusiveFileLock.withLock(beside: path) { () throws(ExecApprovalsError) in
            try compareAndSet(file, baseHash: baseHash)
        }
    }

    private func compareAndSet(
        _ file: ExecApprovalsFile, baseHash: String?
    ) throws(ExecApprovalsError) -> ExecApprovalsSnapshot {
        let current: ExecApprovalsSnapshot
        do {
            current = try snapshot()
        } catch .invalidFile {
            // A damaged file can be replaced, but only by someone who read its bytes (its hash).
            let bytes: [UInt8] = (try? SecureFile.read(path)) ?? []
            guard baseHash == Self.hash(bytes) else { throw .conflict }
            return try write(file)
        }
        if current.exists || baseHash != nil {
            guard baseHash == current.hash else { throw .conflict }
        }
        return try write(file)
    }

    private func write(_ file: ExecApprovalsFile) throws(ExecApprovalsError) -> ExecApprovalsSnapshot {
        let bytes = file.bytes
        do {
            try SecureFile.writeAtomically(bytes, to: path)
        } catch {
            throw .storage(error.description)
        }
        return ExecApprovalsSnapshot(path: path, exists: true, hash: Self.hash(bytes), file: file)
    }

    static func hash(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
