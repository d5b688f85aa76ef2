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

/// Writes a file that did not exist: `O_CREAT | O_EXCL` refuses an existing name, a symlink included
/// (so a link planted at the target is never followed), and `O_NOFOLLOW` says so again.
enum ImageFileWriter {
    enum Outcome: Equatable {
        case written
        case exists
        case failed(String)
    }

    /// Whether something (a file, a directory, a link, even a dangling one) already has this name.
    static func nameIsTaken(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    static func writeNew(_ data: Data, to path: String) -> Outcome {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            return errno == EEXIST || errno == ELOOP ? .exists : .failed(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let failure: String? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        return failure.map(Outcome.failed) ?? .written
    }
}
