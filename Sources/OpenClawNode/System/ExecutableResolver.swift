#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the file an `argv[0]` names, the way `execvp` would: a name with a `/` is a path (relative to
/// the working directory), a bare name is looked up in `PATH`. The policy judges the resolved path,
/// never the name the agent typed.
public struct ExecutableResolver: Sendable {
    public var searchPath: String

    public init(searchPath: String) {
        self.searchPath = searchPath
    }

    /// The file that would run, symlinks resolved: what the policy judges.
    public func resolve(_ name: String, workingDirectory: String?) -> String? {
        locate(name, workingDirectory: workingDirectory).map(Self.normalize)
    }

    /// The path under which the name is found, as `which` prints it (`/usr/bin/python3`, not the
    /// `/usr/bin/python3.12` it links to).
    public func locate(_ name: String, workingDirectory: String?) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") {
            let path = name.hasPrefix("/") ? name : (workingDirectory ?? currentDirectory()) + "/" + name
            return Self.isExecutableFile(path) ? path : nil
        }
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if Self.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// Symlinks resolved (`/usr/bin/python3` → `/usr/bin/python3.12`), so an allowlist entry cannot be
    /// bypassed by a link with an allowed name.
    static func normalize(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return String(cString: buffer)
    }
}
