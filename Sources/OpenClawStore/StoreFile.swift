#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database file on disk: created private before SQLite sees it, and moved aside when it is
/// beyond repair.
///
/// POSIX calls rather than `FileManager` so the modes are exact: transcripts are private, so the
/// file is created 0600 (and missing folders 0700) before a byte is written; SQLite gives its `-wal`
/// and `-shm` files the database file's mode.
enum StoreFile {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let path: String
        let code: Int32
        var description: String { "\(operation) \(path) failed: \(String(cString: strerror(code)))" }
    }

    /// The files SQLite keeps beside a database in WAL mode (and in rollback mode, the journal).
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Creates the missing folders (0700) and an empty database file (0600) unless one exists.
    static func prepare(_ path: String) throws(Failure) {
        try makeDirectory(parent(of: path))
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw Failure(operation: "create", path: path, code: errno)
        }
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether this process may write `path` (false for a read-only or immutable file, whoever we are).
    static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// The size of a regular file; nil when there is none (or something else is in its place).
    static func size(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Whether `path` has a WAL with pages in it that no other process has open: what a session that
    /// did not close (a crash) leaves behind, where damage may wait unseen. A WAL another process is
    /// using (a chat open in another terminal) is not checked: that would read the whole file at every
    /// command run beside it.
    static func hasWALLeftBehind(_ path: String) -> Bool {
        (size(path + "-wal") ?? 0) > 0 && !isOpenInAnotherProcess(path)
    }

    /// Whether another process has the database open in WAL mode. SQLite's unix VFS holds a shared lock
    /// on one byte of the `-shm` file for every open connection (its "dead man switch", byte 128: the
    /// first opener resets the shared memory only when nobody holds it), and `F_GETLK` reports the lock
    /// of another process, never this one's: a store this process opened twice reads as not in use.
    static func isOpenInAnotherProcess(_ path: String) -> Bool {
        let descriptor = open(path + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// The whole file; nil when it cannot be read.
    static func contents(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return result }
            result += buffer[..<count]
        }
    }

    /// Writes every byte, across short writes and interruptions.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(Failure) {
        var failure: Failure?
        bytes.withUnsafeBytes { buffer in
            do throws(Failure) { try writeAll(buffer, to: descriptor, path: path) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Failure(operation: "write", path: path, code: errno) }
            offset += written
        }
    }

    /// Replaces `path` with `bytes` (mode 0600) so that a crash leaves the old file or the new one:
    /// written to a temporary file, fsynced, renamed over, and the folder fsynced.
    static func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(Failure) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: temporary, code: errno) }
        do throws(Failure) {
            try writeAll(bytes, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", path: temporary, code: errno) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename", path: temporary, code: code)
        }
        let folder = open(parent(of: path).isEmpty ? "." : parent(of: path), O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// Renames the database and its companions to `<name>.corrupt-<epochms>` (plus the companion
    /// suffix, so SQLite still pairs them if someone opens the copy). Returns the new database path.
    static func moveAside(_ path: String, epochMs: Int) throws(Failure) -> String {
        var aside = "\(path).corrupt-\(epochMs)"
        var attempt = 1
        while exists(aside) {
            attempt += 1
            aside = "\(path).corrupt-\(epochMs)-\(attempt)"
        }
        if rename(path, aside) != 0, errno != ENOENT { throw Failure(operation: "rename", path: path, code: errno) }
        for suffix in companionSuffixes where exists(path + suffix) {
            if rename(path + suffix, aside + suffix) != 0 {
                throw Failure(operation: "rename", path: path + suffix, code: errno)
            }
        }
        return aside
    }

    /// Creates `path` and its missing parents with mode 0700.
    static func makeDirectory(_ path: String) throws(Failure) {
        guard !path.isEmpty, path != "/", !exists(path) else { return }
        try makeDirectory(parent(of: path))
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw Failure(operation: "mkdir", path: path, code: errno) }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
