/// Whether the terminal re-wraps its rows when its window changes width, told from the environment.
///
/// It decides how the live region is erased after a resize: a terminal that *reflows* (VTE and every
/// terminal built on it, kitty, iTerm2, Terminal.app, WezTerm, Windows Terminal, Alacritty, Konsole,
/// foot, ghostty, tmux panes, VS Code's xterm.js) puts a row longer than the new width on several rows,
/// so the region takes more rows than were drawn; one that *truncates* (xterm, the Linux console, GNU
/// screen, st) cuts them. No escape sequence asks a terminal which it does, so the variables terminals
/// set for their programs decide, a multiplexer's before the terminal's around it (the program talks to
/// the multiplexer). `OPENCLAW_TERMINAL_REFLOW=1` or `=0` overrides.
///
/// An unknown terminal is taken to reflow: it is most often a session reached over ssh, in a container
/// or through `sudo`, where only `TERM` survives, and the window around it then nearly always belongs
/// to a reflowing terminal (every default terminal of macOS, Windows, GNOME and KDE reflows); the
/// truncating ones still in use say who they are locally (`XTERM_VERSION`, `TERM=linux`, `STY`). A wrong
/// guess either way costs a few rows around the input line after a narrowing; the override is there.
enum TerminalReflow: Equatable, Sendable {
    case reflows
    case truncates

    static let overrideVariable = "OPENCLAW_TERMINAL_REFLOW"

    static func detect(environment: [String: String]) -> TerminalReflow {
        let term = environment["TERM"]?.lowercased() ?? ""
        func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        switch environment[overrideVariable]?.lowercased() {
        case "1", "yes", "true", "on": return .reflows
        case "0", "no", "false", "off": return .truncates
        default: break
        }
        // Multiplexers: tmux re-wraps its panes; GNU screen cuts its windows' rows.
        if has("TMUX") || term.hasPrefix("tmux") { return .reflows }
        if has("STY") || term.hasPrefix("screen") { return .truncates }
        if term == "linux" { return .truncates }
        if reflowingVariables.contains(where: has) { return .reflows }
        if let program = environment["TERM_PROGRAM"], reflowingPrograms.contains(program) { return .reflows }
        if reflowingTerms.contains(where: { term.hasPrefix($0) }) { return .reflows }
        // xterm exports its version; TERM=xterm alone is what most terminals and ssh sessions claim.
        if has("XTERM_VERSION"), term.hasPrefix("xterm") { return .truncates }
        if term.hasPrefix("st-") || term == "st" { return .truncates }
        return .reflows
    }

    /// Variables only reflowing terminals set.
    private static let reflowingVariables = [
        "VTE_VERSION", "KITTY_WINDOW_ID", "WT_SESSION", "ALACRITTY_WINDOW_ID", "ALACRITTY_SOCKET",
        "ALACRITTY_LOG", "KONSOLE_VERSION", "WEZTERM_PANE", "GHOSTTY_RESOURCES_DIR", "ITERM_SESSION_ID",
    ]

    /// `TERM_PROGRAM` values of reflowing terminals.
    private static let reflowingPrograms: Set = [
        "iTerm.app", "Apple_Terminal", "WezTerm", "vscode", "ghostty", "tmux",
    ]

    /// `TERM` prefixes only reflowing terminals use.
    private static let reflowingTerms = ["xterm-kitty", "alacritty", "foot", "xterm-ghostty", "wezterm"]
}
