/// Why a command can run anything at all, whatever its allowlist entry's path says: a shell, an
/// interpreter handed code on its command line, or a program whose job is to start another one in a
/// way this node cannot look through. Such a command runs under `allowlist` only with an entry
/// naming that program exactly (no wildcard in the file name), or with an approval bound to a plan
/// that shows it; `/usr/bin/*` is never enough.
public enum ExecProgramRisk: Sendable, Hashable {
    case shell(String)
    /// `python -c`, `awk` with a program, `find -exec`, `git -c` …: the description names the form.
    case inlineCode(String)
    /// `sudo`, `setsid`, `xargs` …: starts a command this node does not judge.
    case runsAnotherProgram(String)
    /// Not one of the ``PlainPrograms`` (or not as the system installed it): only an exact entry covers it.
    case notPlain(String)

    /// What the refusal says after "needs an allowlist entry naming it exactly".
    public var description: String {
        switch self {
        case .shell(let name): return "\(name) is a shell"
        case .inlineCode(let form): return "\(form) runs code given on the command line"
        case .runsAnotherProgram(let name): return "\(name) starts another program this node cannot judge"
        case .notPlain(let name):
            return "\(name) is not one of the plain programs a wildcard entry covers (those that run no code)"
        }
    }

    /// What keeps a wildcard entry from covering `argv`: a risk from ``of(_:resolvedPath:)``, or the
    /// program not being a plain one installed by the system (``PlainPrograms``).
    public static func underWildcard(_ argv: [String], resolvedPath: String) -> ExecProgramRisk? {
        if let risk = of(argv, resolvedPath: resolvedPath) { return risk }
        let name = ExecProgramName(resolvedPath)
        guard PlainPrograms.isPlain(name), PlainPrograms.isSystemFile(resolvedPath) else {
            return .notPlain(name.fileName)
        }
        return nil
    }

    /// The risk of `argv` (the command after dispatch wrappers), judged by the name as typed and by
    /// the file it resolves to (`/usr/bin/awk` → `mawk`), or nil for an ordinary program.
    public static func of(_ argv: [String], resolvedPath: String?) -> ExecProgramRisk? {
        guard let first = argv.first else { return nil }
        let arguments = Array(argv.dropFirst())
        var names = [ExecProgramName(first)]
        if let resolvedPath { names.append(ExecProgramName(resolvedPath)) }
        for name in names {
            if let risk = risk(name, arguments) { return risk }
        }
        return nil
    }

    static let shells: Set<String> = [
        "sh", "ash", "bash", "dash", "fish", "ksh", "mksh", "pdksh", "zsh", "csh", "tcsh", "rbash", "yash", "elvish",
        "nu", "xonsh", "pwsh", "powershell", "cmd", "busybox", "toybox", "lksh", "posh", "oksh", "sash", "rc", "es",
        "scsh", "ksh93",
    ]

    /// Upstream never unwraps `sudo doas setsid chrt ionice taskset`; the rest start a command given
    /// in their arguments, change who or where it runs, or trace it.
    static let runners: Set<String> = [
        "sudo", "doas", "su", "runuser", "pkexec", "setsid", "chrt", "ionice", "taskset", "xargs", "parallel",
        "nsenter", "unshare", "chroot", "setpriv", "capsh", "systemd-run", "flock", "watch", "script", "strace",
        "ltrace", "gdb", "valgrind", "ssh-agent", "dbus-run-session", "dbus-launch", "xvfb-run", "prlimit",
        "numactl", "cgexec", "firejail", "bwrap", "fakeroot", "proot", "torsocks", "proxychains", "sg", "newgrp",
        "start-stop-daemon", "caffeinate", "sandbox-exec", "arch", "xcrun", "expect", "tmux", "screen",
        "chpst", "softlimit", "setuidgid", "envdir", "sem", "rlwrap", "linux32", "linux64", "setarch", "unbuffer",
        "sshpass", "at", "batch", "crontab",
    ]

    private static func risk(_ name: ExecProgramName, _ arguments: [String]) -> ExecProgramRisk? {
        for candidate in name.forms {
            if shells.contains(candidate) { return .shell(candidate) }
            if runners.contains(candidate) { return .runsAnotherProgram(candidate) }
        }
        return InlineCodeForms.match(name, arguments).map(ExecProgramRisk.inlineCode)
    }
}
