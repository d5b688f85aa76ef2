#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads and writes small secret-bearing files: created with mode 0600 before any byte is written,
/// replaced atomically (write a temporary file, fsync, rename), in a directory created with 0700.
///
/// POSIX rather than `Data.write(options: .atomic)`, which creates the file with the umask's mode
/// first and so leaves a window in which a secret is readable by others.
package enum SecureFile {
    /// A system call on a secret file failed: which one, on which path, with which `errno`.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package let path: String
        package let code: Int32
        package var description: String { "\(operation) \(path) failed: \(String(cString: strerror(code)))" }
    }

    package static func read(_ path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw Failure(operation: "open", path: path, code: errno)
        }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", path: path, code: errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        try makeDirectory(parent(of: path))
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: temporary, code: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                posixWrite(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw Failure(operation: "write", path: temporary, code: code)
            }
            written += count
        }
        fsync(descriptor)
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename", path: path, code: code)
        }
    }

    package static func remove(_ path: String) throws(Failure) {
        if unlink(path) != 0, errno != ENOENT { throw Failure(operation: "remove", path: path, code: errno) }
    }

    /// Takes an exclusive `flock` on `path` (created empty with mode 0600 when missing), waiting up to
    /// `patience` for another process that holds it, and returns the descriptor that holds it for
    /// ``unlock(_:)``. Nil when the lock cannot be had (a read-only folder, a file system without locks, a
    /// holder stopped with Ctrl-Z): the caller then goes on with its own process's lock rather than hang,
    /// and a write that cannot happen reports its own error.
    package static func lockExclusively(_ path: String, patience: Duration = .seconds(2)) -> Int32? {
        try? makeDirectory(parent(of: path))
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        let deadline = ContinuousClock.now + patience
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK, ContinuousClock.now < deadline else {
                close(descriptor)
                return nil
            }
            usleep(2_000)
        }
        return descriptor
    }

    /// Releases a lock taken with ``lockExclusively(_:)`` (closing the descriptor releases it).
    package static func unlock(_ descriptor: Int32) {
        close(descriptor)
    }

    /// Creates `path` and its missing parents with mode 0700.
    package static func makeDirectory(_ path: String) throws(Failure) {
        guard !path.isEmpty, path != "/" else { return }
        var status = stat()
        if stat(path, &status) == 0 { return }
        try makeDirectory(parent(of: path))
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw Failure(operation: "mkdir", path: path, code: errno) }
    }

    /// The permission bits of a file, for tests and diagnostics.
    package static func mode(of path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o777
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

@inline(__always)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always)
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
