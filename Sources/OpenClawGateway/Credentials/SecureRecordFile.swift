import OpenClawProtocol
import Synchronization

/// A 0600 JSON file holding one map of records under a named section (`{"version": 1, "<section>": {…}}`),
/// read whole and replaced atomically (``SecureFile``) under one lock for every change.
///
/// Two locks guard a change. One for the whole process, not one per value: a program makes a new store
/// value for each connection (the terminal's commands do), and two values of one file must not lose each
/// other's writes. And an exclusive `flock` on a file beside it (`<file>.lock`, kept), because a chat, a
/// script's `send` and a `trust --forget` may be separate processes changing the file at once. Reads take
/// only the first, briefly: a write replaces the file whole by a rename.
///
/// Device tokens and certificate pins are both kept this way; one reader and writer keeps their locking,
/// error wording and damaged-file handling the same. A record the decoder cannot read is dropped rather
/// than failing the file: one bad entry must not lock a person out of every gateway.
package final class SecureRecordFile<Record: Sendable & Equatable>: Sendable {
    package let path: String
    private let section: String
    /// Names the file in the error for a file that is not this kind ("a device token file").
    private let kind: String
    private let decode: @Sendable (JSONValue) -> Record?
    private let encode: @Sendable (Record) -> JSONValue

    package init(
        path: String,
        section: String,
        kind: String,
        decode: @escaping @Sendable (JSONValue) -> Record?,
        encode: @escaping @Sendable (Record) -> JSONValue
    ) {
        self.path = path
        self.section = section
        self.kind = kind
        self.decode = decode
        self.encode = encode
    }

    /// Every record, keyed as stored.
    package func records() throws(CredentialStoreError) -> [String: Record] {
        try secureRecordFileLock.withLock { _ throws(CredentialStoreError) in try readAll() }
    }

    /// Changes the records in one locked read–modify–write. The file is written only when the records
    /// changed, and removed when none are left: an unchanged rewrite costs a disk flush for nothing.
    ///
    /// `change` may run twice: once on what is there now, and, when that changes something, again under
    /// both locks on what is there then.
    package func update(_ change: (inout [String: Record]) -> Void) throws(CredentialStoreError) {
        // Most changes change nothing (a token saved again): no lock file, no waiting on other processes.
        let now = try records()
        var probe = now
        change(&probe)
        guard probe != now else { return }
        // Another process's lock first, then this process's: a reader, which takes only this process's,
        // never waits on another process.
        let otherProcesses = SecureFile.lockExclusively(path + ".lock")
        defer { otherProcesses.map(SecureFile.unlock) }
        try secureRecordFileLock.withLock { _ throws(CredentialStoreError) in
            let before = try readAll()
            var after = before
            change(&after)
            guard after != before else { return }
            if after.isEmpty {
                do throws(SecureFile.Failure) {
                    try SecureFile.remove(path)
                } catch {
                    throw CredentialStoreError(path: path, reason: error.description)
                }
            } else {
                try writeAll(after)
            }
        }
    }

    private func readAll() throws(CredentialStoreError) -> [String: Record] {
        let bytes: [UInt8]?
        do {
            bytes = try SecureFile.read(path)
        } catch {
            throw CredentialStoreError(path: path, reason: error.description)
        }
        guard let bytes else { return [:] }
        guard let entries = (try? JSONParser().parse(bytes))?[section]?.objectValue else {
            throw CredentialStoreError(path: path, reason: "not \(kind)")
        }
        return entries.compactMapValues(decode)
    }

    private func writeAll(_ all: [String: Record]) throws(CredentialStoreError) {
        let file = JSONValue.object(["version": 1, section: .object(all.mapValues(encode))])
        do {
            try SecureFile.writeAtomically(JSONSerializer.bytes(file), to: path)
        } catch {
            throw CredentialStoreError(path: path, reason: error.description)
        }
    }
}

/// See ``SecureRecordFile``: one lock for every record file of the process.
private let secureRecordFileLock = Mutex(())
