#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``SQLiteChatStore`` could not open its file for a reason a new file would not fix. The file
/// is left exactly where and as it was (its outbox included), so fixing the cause brings it all back.
///
/// `description` names the file and the cause in words a person can act on.
public struct StoreUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kept the store from using the file.
    public enum Reason: Sendable, Hashable {
        /// The file, or its folder, cannot be written.
        case readOnly
        /// SQLite cannot open the file or a companion (`-wal`, `-shm`): permissions, or a directory
        /// (or something else that is not a file) where the file should be.
        case cannotOpen
        /// Another process holds the database locked for longer than the store waits.
        case busy
        /// The disk is full.
        case diskFull
        /// The operating system reported an I/O error.
        case ioError
        /// Anything else SQLite or the file system refused.
        case other
    }

    /// What kept the store from using the file.
    public let reason: Reason
    /// The file that could not be used: the database, or the outbox journal beside it.
    public let path: String
    /// The underlying error, for logs.
    public let detail: String

    public var description: String {
        let what =
            switch reason {
            case .readOnly: "it is read-only"
            case .cannotOpen: "it cannot be opened (check its permissions, and that it is a file)"
            case .busy: "another process keeps it locked"
            case .diskFull: "the disk is full"
            case .ioError: "the system reported an I/O error"
            case .other: "it could not be opened"
            }
        return "\(path): \(what) (\(detail))"
    }

    init(path: String, error: any Error) {
        self.path = path
        if let failure = error as? StoreFile.Failure {
            reason = Self.reason(errno: failure.code)
            detail = failure.description
        } else if let error = error as? SQLiteError {
            reason = Self.reason(error.resultCode)
            detail = error.description
        } else {
            reason = .other
            detail = "\(error)"
        }
    }

    init(reason: Reason, path: String, detail: String) {
        self.reason = reason
        self.path = path
        self.detail = detail
    }

    private static func reason(_ code: SQLiteResultCode) -> Reason {
        switch code {
        case .readOnly: .readOnly
        case .cannotOpen, .permission, .auth: .cannotOpen
        case .busy, .locked: .busy
        case .full: .diskFull
        case .ioError: .ioError
        default: .other
        }
    }

    private static func reason(errno code: Int32) -> Reason {
        switch code {
        case EROFS: .readOnly
        case EACCES, EPERM, EISDIR, ENOTDIR: .cannotOpen
        case ENOSPC: .diskFull
        case EIO: .ioError
        default: .other
        }
    }
}
