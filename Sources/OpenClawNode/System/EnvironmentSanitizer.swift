/// Removes from a request's `env` the variables that change what a program loads or how a shell
/// starts, so an agent cannot turn an allowed binary into another program (`LD_PRELOAD`,
/// `DYLD_INSERT_LIBRARIES`, `BASH_ENV` …). `PATH` is not overridable either: the policy judged the
/// executable found with the node's own `PATH`.
public enum EnvironmentSanitizer {
    static let blockedPrefixes = ["LD_", "DYLD_", "BASH_FUNC_"]
    static let blockedNames: Set<String> = [
        "PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "IFS", "PROMPT_COMMAND", "NODE_OPTIONS",
        "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYOPT",
        "RUBYLIB", "GCONV_PATH", "HOSTALIASES", "RESOLV_HOST_CONF", "LOCALDOMAIN", "MALLOC_CHECK_", "GIT_EXEC_PATH",
        "GIT_SSH_COMMAND", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "ZDOTDIR",
    ]

    /// The variables that may be passed, and the names of those dropped (for the log; values never).
    public static func sanitize(_ environment: [String: String]) -> (kept: [String: String], dropped: [String]) {
        var kept: [String: String] = [:]
        var dropped: [String] = []
        for (name, value) in environment {
            let upper = name.uppercased()
            let valid = !name.isEmpty && !name.contains("=") && !name.contains("\0") && !value.contains("\0")
            if !valid || blockedNames.contains(upper) || blockedPrefixes.contains(where: upper.hasPrefix) {
                dropped.append(name)
            } else {
                kept[name] = value
            }
        }
        return (kept, dropped.sorted())
    }
}
