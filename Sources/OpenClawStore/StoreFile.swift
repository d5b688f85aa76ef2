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
    private static func makeDirectory(_ path: String) throws(Failure) {
        guard !path.isEmpty, path != "/", !exists(path) else { return }
        try makeDirectory(parent(of: path))
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw Failure(operation: "mkdir", path: path, code: errno) }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
