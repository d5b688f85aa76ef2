#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text piped into a command that also has a prompt argument (`git diff | openclaw-chat send "review
/// this"`): the piped text goes first, the prompt after it, as `llm` combines them.
///
/// Only a pipe or a file counts: a terminal is the person, and `/dev/null` or a closed stdin are nothing
/// to send. Like `llm`, a pipe is read to its end, so a writer that never closes it holds the
/// command (`</dev/null` says there is nothing); after a second without a byte the command says what it
/// waits for.
enum PipedInput {
    /// More than this is an attachment, not a message.
    static let limit = 4 << 20

    enum Outcome: Equatable {
        case none
        case text(String)
        case tooLong
    }

    /// What stdin is, told without `stat` (whose struct the Linux toolchain resolves differently from
    /// file to file): a terminal; something seekable (a file, `/dev/null`); a pipe (it cannot seek); or
    /// nothing (closed).
    private enum Source { case terminal, seekable, pipe, closed }

    private static var source: Source {
        if isatty(STDIN_FILENO) == 1 { return .terminal }
        if lseek(STDIN_FILENO, 0, SEEK_CUR) >= 0 { return .seekable }
        return errno == ESPIPE ? .pipe : .closed
    }

    private static func readable(withinMs timeout: Int32) -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, timeout)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    private static func readBytes(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
            Glibc.read(STDIN_FILENO, buffer.baseAddress, buffer.count)
        #else
            Darwin.read(STDIN_FILENO, buffer.baseAddress, buffer.count)
        #endif
    }

    /// Everything on stdin to its end, whatever it is (`--file -`, `send -`), or once it is more than
    /// `limit` bytes: what `FileHandle.readDataToEndOfFile()` did, which needs corelibs Foundation. A read
    /// error ends it.
    static func readToEnd(stoppingPast limit: Int = .max) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = buffer.withUnsafeMutableBytes { readBytes(into: $0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    static func read() -> Outcome {
        let source = self.source
        guard source == .seekable || source == .pipe else { return .none }
        if source == .pipe, !readable(withinMs: 1_000) {
            // A pipe nobody writes to or closes would hold the command without a word.
            let terminal = Terminal()
            terminal.errorLine(
                terminal.styled("Waiting for the text piped in to end (</dev/null when nothing is piped)…", .dim))
        }
        let bytes = readToEnd(stoppingPast: limit)
        if bytes.count > limit { return .tooLong }
        let text = Substring(String(decoding: bytes, as: UTF8.self))
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return trimmed.isEmpty ? .none : .text(String(trimmed))
    }
}
