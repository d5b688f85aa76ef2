/// Refuses a command that names the node's own state: its approvals file, device identity and
/// tokens. With a wildcard entry (`/usr/bin/*`) an agent could otherwise `cp` its own policy into
/// place or read the device key. Every argument is read as a path relative to the working directory
/// (and `--option=value` by its value), `.` and `..` folded, so spellings such as
/// `./.openclaw/../.openclaw/exec-approvals.json` are caught; a program that opens a path it builds
/// itself is beyond this check, which is why a wildcard entry is close to `full` (README).
struct StateDirectoryGuard: Sendable {
    /// Absolute paths, each a directory or file to protect.
    var protectedPaths: [String]

    func namedPath(argv: [String], cwd: String?) -> String? {
        guard !protectedPaths.isEmpty else { return nil }
        let base = cwd ?? "/"
        var candidates = [base]
        for argument in argv {
            candidates.append(argument)
            if let equals = argument.firstIndex(of: "=") {
                candidates.append(String(argument[argument.index(after: equals)...]))
            }
        }
        for candidate in candidates where !candidate.isEmpty {
            let absolute = Self.normalize(candidate.hasPrefix("/") ? candidate : base + "/" + candidate)
            if let hit = protectedPaths.first(where: { Self.contains($0, absolute) }) { return hit }
        }
        return nil
    }

    static func contains(_ directory: String, _ path: String) -> Bool {
        let directory = normalize(directory)
        return path == directory || path.hasPrefix(directory == "/" ? "/" : directory + "/")
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
}
