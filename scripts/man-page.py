#!/usr/bin/env python3
"""Writes openclaw-chat(1) in roff from `openclaw-chat --experimental-dump-help` (read on stdin).

The page is generated from ArgumentParser's own description of the commands, so it says exactly what
`--help` says and cannot drift from it. Usage: openclaw-chat --experimental-dump-help | man-page.py VERSION DATE
"""
import json
import sys


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote that would start a request."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith(".") or line.startswith("'"):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def option_names(argument):
    names = []
    for name in argument.get("names", []):
        prefix = "-" if name["kind"] == "short" else "--"
        names.append("\\fB" + roff(prefix + name["name"]) + "\\fR")
    return ", ".join(names)


def synopsis_of(argument):
    if argument["kind"] == "positional":
        return "\\fI" + roff(argument.get("valueName", "value")) + "\\fR"
    text = option_names(argument)
    if argument["kind"] == "option":
        text += " \\fI" + roff(argument.get("valueName", "value")) + "\\fR"
    return text


def describe(arguments, out):
    for argument in arguments:
        if not argument.get("shouldDisplay", True):
            continue
        out.append(".TP")
        out.append(synopsis_of(argument))
        out.append(roff(argument.get("abstract", "")))
        if argument.get("discussion"):
            out.append(".IP")
            out.append(roff(argument["discussion"]))


def main():
    version, date = sys.argv[1], sys.argv[2]
    command = json.load(sys.stdin)["command"]
    name = command["commandName"]
    out = [
        '.TH "%s" "1" "%s" "%s %s" "User Commands"' % (name.upper(), date, name, version),
        ".SH NAME",
        "%s \\- %s" % (name, roff(command.get("abstract", ""))),
        ".SH SYNOPSIS",
        "\\fB%s\\fR [\\fIsubcommand\\fR] [\\fIoptions\\fR]" % name,
        ".SH DESCRIPTION",
        roff(command.get("discussion") or command.get("abstract", "")),
        "With no subcommand, \\fB%s\\fR runs \\fB%s\\fR." % (name, command.get("defaultSubcommand", "chat")),
    ]
    if command.get("arguments"):
        out.append(".SH OPTIONS")
        describe(command["arguments"], out)
    out.append(".SH SUBCOMMANDS")
    for sub in command.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        out.append(".SS %s" % roff(sub["commandName"]))
        out.append(roff(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".PP")
            out.append(roff(sub["discussion"]))
        for nested in sub.get("subcommands", []):
            out.append(".TP")
            out.append("\\fB%s %s\\fR" % (roff(sub["commandName"]), roff(nested["commandName"])))
            out.append(roff(nested.get("abstract", "")))
        own = [a for a in sub.get("arguments", []) if a.get("shouldDisplay", True)]
        if own:
            describe(own, out)
    out += [
        ".SH EXIT STATUS",
        "0 success; 2 usage; 3 connection; 4 authentication or permission; 5 pairing required; 6 timeout; "
        "7 the run was stopped; 8 the agent's run failed.",
        ".SH FILES",
        "The state directory (\\fI$XDG_DATA_HOME/openclaw\\-chat\\fR or \\fI~/.local/share/openclaw\\-chat\\fR on Linux, or \\fB\\-\\-state\\-dir\\fR) holds logins, device "
        "identity and tokens, certificate pins, transcripts and \\fIexec\\-approvals.json\\fR, each file mode 0600.",
        ".SH SEE ALSO",
        "The README in /usr/share/doc/openclaw\\-chat.",
    ]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
