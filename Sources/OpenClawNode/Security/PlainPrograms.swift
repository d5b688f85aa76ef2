#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The programs a wildcard allowlist entry (`/usr/bin/*`) may cover: ones that read, list, compare,
/// copy or transform files and never run code they are given.
///
/// Deciding by a list of the dangerous could never be complete (every interpreter, build tool and
/// pager has a way to run a command, and new ones ship every year), so a wildcard entry covers only
/// what is on this list, and only as the system installed it: a root-owned file in a root-owned
/// directory, neither writable by others, so that a copy of `python3` renamed `ls` in a writable
/// directory is not `ls`. Anything else (`git`, `python3`, `make`, `sed`, `awk`, `tar` …) needs an
/// entry naming it exactly, which the README calls what it is: full access through that program.
/// A few of these still have an option that runs a program (`find -exec`, `sort --compress-program`):
/// ``InlineCodeForms`` refuses those forms.
enum PlainPrograms {
    static let names: Set<String> = [
        // Reading and transforming text.
        "cat", "tac", "nl", "od", "base32", "base64", "basenc", "fmt", "pr", "fold", "head", "tail", "csplit",
        "sort", "uniq", "comm", "cut", "paste", "join", "tr", "expand", "unexpand", "wc", "sum", "cksum", "md5sum",
        "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "shuf", "tsort", "column", "rev",
        "look", "hexdump", "xxd", "strings", "grep", "egrep", "fgrep", "rg", "jq", "diff", "cmp", "iconv",
        // Files and directories.
        "ls", "dir", "vdir", "cp", "mv", "rm", "rmdir", "mkdir", "ln", "link", "unlink", "touch", "chmod", "dd",
        "shred", "truncate", "df", "du", "stat", "file", "tree", "find", "realpath", "readlink", "basename",
        "dirname", "pathchk", "mktemp", "tee", "install", "sync",
        // Archives that only pack and unpack.
        "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "xz", "unxz", "xzcat", "zstd", "unzstd", "unzip",
        "zipinfo",
        // The system and the session.
        "echo", "printf", "pwd", "date", "true", "false", "yes", "seq", "factor", "numfmt", "expr", "sleep", "id",
        "whoami", "groups", "logname", "users", "who", "uname", "hostname", "hostid", "nproc", "uptime", "printenv",
        "env", "tty", "free", "ps", "pgrep", "pidof", "lsof", "ss", "lscpu", "lsblk", "which", "whereis",
        // The network, fetching only.
        "curl", "wget",
    ]

    static func isPlain(_ name: ExecProgramName) -> Bool {
        names.contains(name.fileName)
    }

    /// A file only root could have put there: owned by root and not writable by group or others, in a
    /// directory that is the same.
    static func isSystemFile(_ path: String) -> Bool {
        let directory = String(
            path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        return isRootOwnedAndLocked(path) && isRootOwnedAndLocked(directory.isEmpty ? "/" : directory)
    }

    private static func isRootOwnedAndLocked(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_uid == 0 && (status.st_mode & (S_IWGRP | S_IWOTH)) == 0
    }
}
