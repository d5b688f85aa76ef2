#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses a command that names the node's own state: its approvals file, device identity and
/// tokens, and the node process itself (`/proc/<pid>`, where its environment holds the gateway
/// token). With a wildcard entry an agent could otherwise `cp` its own policy into place or read the
/// device key.
///
/// Every argument is read as a path relative to the working directory, and so are the value of
/// `--option=value`, a short option's attached value (`-t/dir`), an `@file` argument and every
/// variable's value. Each is compared twice: as written with `.` and `..` folded, and with symlinks
/// resolved as far as the path exists (`/proc/self/root/…`, a link to an ancestor), against the
/// protected paths resolved the same way. A program that builds a path itself is beyond this check,
/// which is one reason a wildcard entry covers only plain programs (``PlainPrograms``).
struct StateDirectoryGuard: Sendable {
    /// Absolute paths, each a directory or file to protect.
    var protectedPaths: [String]

    private var allProtected: [String] {
        let own = ["/proc/\(getpid())"]
        let lexical = (protectedPaths + own).map(Self.normalize)
        return Array(Set(lexical + lexical.map(Self.resolvingLinks)))
    }

    func namedPath(argv: [String], cwd: String?, environment: [String: String] = [:]) -> String? {
        guard !protectedPaths.isEmpty else { return nil }
        let base = cwd ?? "/"
        var candidates = [base]
        for text in argv + environment.values.sorted() {
            candidates.append(text)
            if let equals = text.firstIndex(of: "=") { candidates.append(String(text[text.index(after: equals)...])) }
            if text.hasPrefix("-"), !text.hasPrefix("--"), text.count > 2 {
                candidates.append(String(text.dropFirst(2)))
            }
            if text.hasPrefix("@") { candidates.append(String(text.dropFirst())) }
            if text.contains(":") { candidates += text.split(separator: ":").map(String.init) }
        }
        candidates += candidates.filter { $0.hasPrefix("@") }.map { String($0.dropFirst()) }
        let protected = allProtected
        for candidate in candidates where !candidate.isEmpty {
            let absolute = Self.normalize(candidate.hasPrefix("/") ? candidate : base + "/" + candidate)
            for form in [absolute, Self.resolvingLinks(absolute)] {
                if let hit = protected.first(where: { Self.contains($0, form) }) { return hit }
            }
        }
        return nil
    }

    static func contains(_ directory: String, _ path: String) -> Bool {
        let directory = comparable(directory)
        let path = comparable(path)
        return path == directory || path.hasPrefix(directory == "/" ? "/" : directory + "/")
    }

    /// APFS and HFS+ compare names without case, and the data volume's firmlink names the same files.
    private static func comparable(_ path: String) -> String {
        #if os(macOS)
            let lower = path.lowercased()
            let data = "/system/volumes/data"
            return lower.hasPrefix(data + "/") ? String(lower.dropFirst(data.count)) : lower
        #else
            return path
        #endif
    }

    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The path with symlinks resolved in its longest existing prefix, the rest appended as written.
    static func resolvingLinks(_ path: String) -> String {
        var head = normalize(path)
        var tail: [Substring] = []
        while true {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                let real = String(cString: resolved)
                return normalize(([Substring(real)] + tail.reversed()).joined(separator: "/"))
            }
            guard head != "/", let slash = head.lastIndex(of: "/") else { return path }
            tail.append(head[head.index(after: slash)...])
            head = slash == head.startIndex ? "/" : String(head[..<slash])
        }
    }
}
