/// What a command's environment may be: the request's variables are judged, never trusted, and the
/// child starts from a small base rather than from the node's own environment.
///
/// An agent that can set `GIT_EXTERNAL_DIFF`, `LD_PRELOAD` or `PAGER` turns an allowed program into
/// any program, so a request naming such a variable is refused whole, with the names, as upstream's
/// node host does; stripping it silently would run a command other than the one the agent asked
/// for. The node's own variables (its gateway token, `SSH_AUTH_SOCK`, cloud credentials) never reach
/// the agent's commands unless the user passes them by name (`node --pass-env NAME`).
public struct ExecEnvironmentPolicy: Sendable {
    /// Names from the node's environment that every command gets.
    public static let baseNames: Set<String> = [
        "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM", "COLORTERM", "NO_COLOR",
    ]

    /// Names the user chose to pass from the node's environment, beyond ``baseNames``.
    public var passThrough: Set<String>

    public init(passThrough: Set<String> = []) {
        self.passThrough = Set(passThrough.map { $0.uppercased() })
    }

    /// The request variables this policy refuses, sorted: blocked names, and names that are not a
    /// portable variable name at all (an `=`, a NUL, a space …).
    public struct Refusal: Sendable, Hashable {
        public var blocked: [String]
        public var invalid: [String]

        public var isEmpty: Bool { blocked.isEmpty && invalid.isEmpty }

        /// `blocked override keys: A, B; invalid non-portable override keys: C`, as upstream words it.
        public func describe(_ what: String) -> String {
            var parts: [String] = []
            if !blocked.isEmpty { parts.append("blocked \(what) keys: \(blocked.joined(separator: ", "))") }
            if !invalid.isEmpty {
                parts.append(
                    "invalid non-portable \(what) keys: \(invalid.map(CommandText.quote).joined(separator: ", "))")
            }
            return parts.joined(separator: "; ")
        }
    }

    public static func refusal(_ variables: [String: String]) -> Refusal {
        var refusal = Refusal(blocked: [], invalid: [])
        for (name, value) in variables {
            if !isPortableName(name) || value.contains("\0") {
                refusal.invalid.append(name)
            } else if isBlocked(name) {
                refusal.blocked.append(name)
            }
        }
        refusal.blocked.sort()
        refusal.invalid.sort()
        return refusal
    }

    public static func isBlocked(_ name: String) -> Bool {
        let upper = name.uppercased()
        return ExecEnvironmentLists.blockedNames.contains(upper)
            || ExecEnvironmentLists.blockedPrefixes.contains(where: upper.hasPrefix)
            || ExecEnvironmentLists.blockedSuffixes.contains(where: upper.hasSuffix)
    }

    static func isPortableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// The child's environment: the base names and the user's pass-through names from the node's
    /// environment, `LC_*`, the node's `PATH` (the one the policy resolved the executable with), then
    /// the request's variables, which ``refusal(_:)`` must already have accepted.
    public func childEnvironment(
        node: [String: String], searchPath: String, request: [String: String]
    ) -> [String: String] {
        var environment: [String: String] = [:]
        for (name, value) in node {
            let upper = name.uppercased()
            guard Self.baseNames.contains(upper) || passThrough.contains(upper) || upper.hasPrefix("LC_") else {
                continue
            }
            environment[name] = value
        }
        environment["PATH"] = searchPath
        for (name, value) in request { environment[name] = value }
        return environment
    }
}
