import OpenClawGateway

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock on a file beside the approvals file, held across read-compare-write.
///
/// Without it two writers that read the same hash could both pass the compare and the second
/// rename would silently drop the first update. `flock` locks belong to an open file description,
/// so the lock excludes other threads of this process (each opens its own) as well as other
/// processes, such as a second `openclaw-chat approvals` run.
enum ExclusiveFileLock {
    static func withLock<Result>(
        beside path: String, _ body: () throws(ExecApprovalsError) -> Result
    ) throws(ExecApprovalsError) -> Result {
        let lockPath = path + ".lock"
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty {
            do {
                try SecureFile.makeDirectory(directory)
            } catch {
                throw .storage(error.description)
            }
        }
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .storage("could not open the lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .storage("could not lock \(lockPath): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
