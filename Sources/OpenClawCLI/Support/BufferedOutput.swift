import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output collected and written in large pieces, for a command that prints many lines at once.
///
/// `history` prints about eight lines a message and `search` two a hit; written as they come, each line
/// was a system call of its own (and, into a pipe, a wake-up of the reader): most of what printing a
/// message cost. Collected, 1,000 messages go out in a handful of writes.
final class BufferedOutput: Sendable {
    /// What is held before it is written: enough for a long page, little memory.
    static let pieceBytes = 64 * 1024

    private let pending = Mutex("")

    /// Adds `text`; writes what is held once it reaches ``pieceBytes``.
    func append(_ text: String) {
        let piece = pending.withLock { held -> String? in
            held += text
            return held.utf8.count >= Self.pieceBytes ? Self.take(&held) : nil
        }
        if let piece { Terminal.writeAll(piece, to: STDOUT_FILENO) }
    }

    /// Writes what is held.
    func flush() {
        let piece = pending.withLock { Self.take(&$0) }
        if !piece.isEmpty { Terminal.writeAll(piece, to: STDOUT_FILENO) }
    }

    /// What is held, leaving nothing (handed over, not copied).
    private static func take(_ held: inout String) -> String {
        var piece = ""
        swap(&piece, &held)
        return piece
    }
}
