/// The command-line forms in which a program runs code written in its own arguments. Upstream's
/// table (`inline-eval.ts`, see docs/NODE-SECURITY-FACTS.md) plus the option families of common
/// tools that start a command or shell on request (`git -c`, `tar --to-command`, `rsync -e`,
/// `ssh -o ProxyCommand`, an editor's `-c`). Upstream enforces its table only in a strict mode; here
/// it always holds, because an allowlist wildcard must not quietly mean "any code".
enum InlineCodeForms {
    /// The form found in `arguments`, described as `python -c`, or nil.
    static func match(_ name: ExecProgramName, _ arguments: [String]) -> String? {
        for program in name.forms {
            if let form = match(program: program, arguments) { return form }
        }
        return nil
    }

    private static func match(program: String, _ arguments: [String]) -> String? {
        switch program {
        case "python", "pypy":
            return cluster(arguments, program, letter: "c", before: "BEIOPRSbdiqsuvx", valued: ["-W", "-X"])
        case "ruby":
            return cluster(arguments, program, letter: "e", before: "SUWacdlnpsvw0123456789", valued: ["-I", "-r"])
        case "perl":
            return cluster(
                arguments, program, letter: "e", before: "STWXUVacdflnpstuw0123456789", valued: ["-I", "-M"])
                ?? cluster(
                    arguments, program, letter: "E", before: "STWXUVacdflnpstuw0123456789", valued: ["-I", "-M"])
        case "node", "nodejs", "bun", "deno":
            if program == "deno" || program == "bun", arguments.first == "eval" { return "\(program) eval" }
            return option(arguments, program, ["-e", "--eval", "-p", "--print", "-pe"], stopAtOperand: true)
        case "php": return option(arguments, program, ["-r", "-B", "-E", "-R"], attached: true, stopAtOperand: true)
        case "r", "rscript", "lua", "luajit", "osascript", "julia", "tclsh", "wish":
            return option(arguments, program, ["-e", "--eval"], attached: true, stopAtOperand: true)
        case "awk", "gawk", "mawk", "nawk", "busybox-awk":
            return programOperand(arguments, program, fileOptions: ["-f", "--file"], codeOptions: ["-e", "--source"])
        case "sed", "gsed":
            return programOperand(
                arguments, program, fileOptions: ["-f", "--file"], codeOptions: ["-e", "--expression"])
        case "find":
            return arguments.first { ["-exec", "-execdir", "-ok", "-okdir"].contains($0) }.map { "find \($0)" }
        case "sort": return option(arguments, program, ["--compress-program"])
        case "rg": return option(arguments, program, ["--pre"])
        case "install": return option(arguments, program, ["--strip-program"])
        case "make", "gmake":
            return option(arguments, program, ["-f", "--file", "--makefile", "--eval", "-E"], attached: true)
        case "git":
            if arguments.contains("rebase"), arguments.contains("-x") { return "git rebase -x" }
            return option(
                arguments, program,
                ["-c", "--config-env", "--exec-path", "--upload-pack", "--receive-pack", "--exec", "--extcmd"],
                attached: false)
        case "vim", "vi", "nvim", "ex", "view", "vimdiff", "gvim", "rvim", "evim":
            if let plus = arguments.first(where: { $0.hasPrefix("+") }) { return "\(program) \(plus.prefix(1))" }
            return option(arguments, program, ["-c", "--cmd", "-S", "-s"], attached: false)
        case "emacs":
            return option(arguments, program, ["--eval", "-l", "--load", "-x", "--script", "-f", "--funcall"])
        case "ssh", "scp", "sftp":
            if arguments.contains(where: { $0 == "-F" || $0.hasPrefix("-F") }) { return "\(program) -F" }
            if arguments.contains(where: { $0 == "-S" && program != "ssh" }) { return "\(program) -S" }
            let settings = zip(arguments, arguments.dropFirst() + [""]).compactMap { argument, next in
                argument == "-o" ? next : argument.hasPrefix("-o") ? String(argument.dropFirst(2)) : nil
            }
            let commands = ["proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "match"]
            return settings.contains { setting in commands.contains { setting.lowercased().hasPrefix($0) } }
                ? "\(program) -o …Command" : nil
        case "tar", "gtar", "bsdtar":
            return option(
                arguments, program,
                [
                    "--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--info-script",
                    "--new-volume-script", "-F", "--rmt-command", "--rsh-command",
                ])
        case "rsync": return option(arguments, program, ["-e", "--rsh", "--rsync-path"])
        case "zip": return option(arguments, program, ["-TT", "--unzip-command"])
        case "man": return option(arguments, program, ["-P", "--pager", "-H", "--html"])
        default: return nil
        }
    }

    /// An option from `names` as its own argument, as `--name=value`, or (with `attached`) as a short
    /// option with its value glued on (`-cprint(1)`).
    private static func option(
        _ arguments: [String], _ program: String, _ names: Set<String>, attached: Bool = true,
        stopAtOperand: Bool = false
    ) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            if stopAtOperand, !argument.hasPrefix("-") { return nil }
            let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
            if names.contains(name) { return "\(program) \(name)" }
            // GNU getopt_long takes any unambiguous prefix of a long option (`--to-com` for `--to-command`).
            if name.hasPrefix("--"), name.count >= 4,
                let long = names.first(where: { $0.hasPrefix("--") && $0.hasPrefix(name) })
            {
                return "\(program) \(long)"
            }
            if attached, !argument.hasPrefix("--"), argument.count > 2,
                names.contains(String(argument.prefix(2)))
            {
                return "\(program) \(argument.prefix(2))"
            }
        }
        return nil
    }

    /// A short-option cluster reaching `letter` through flags in `before` (`python -Ic`, `perl -lne`).
    private static func cluster(
        _ arguments: [String], _ program: String, letter: Character, before: String, valued: Set<String>
    ) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("-"), argument != "-", argument != "--" else { return nil }
            if argument.hasPrefix("--") {
                index += 1
                continue
            }
            if valued.contains(argument) {
                index += 2
                continue
            }
            for character in argument.dropFirst() {
                if character == letter { return "\(program) -\(letter)" }
                if !before.contains(character) { break }
            }
            index += 1
        }
        return nil
    }

    /// Programs whose first operand is a program (`awk '{print}' f`, `sed s/a/b/ f`) unless one is
    /// read from a file.
    private static func programOperand(
        _ arguments: [String], _ program: String, fileOptions: Set<String>, codeOptions: Set<String>
    ) -> String? {
        if let code = option(arguments, program, codeOptions) { return code }
        if option(arguments, program, fileOptions) != nil { return nil }
        return "\(program) program"
    }
}
