#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether and how replies are rendered as Markdown on this terminal: only with colour (a terminal,
/// `NO_COLOR` unset, not `TERM=dumb`); piped output and `NO_COLOR` keep the raw Markdown, unchanged, so
/// scripts get exactly what the agent wrote.
enum MarkdownOutput {
    static func renderer(
        for terminal: Terminal, environment: [String: String] = ProcessEnvironment.current
    ) -> MarkdownTerminalRenderer? {
        guard terminal.colors else { return nil }
        return MarkdownTerminalRenderer(width: width(environment: environment), hyperlinks: hyperlinks(environment))
    }

    /// The terminal's columns (`TIOCGWINSZ` on stdout), else `COLUMNS`, else 80; at least 20.
    static func width(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return max(20, Int(size.ws_col)) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return max(20, columns) }
        return 80
    }

    /// Terminals known to show OSC 8 hyperlinks (others would print nothing for them, or garbage);
    /// `FORCE_HYPERLINK=1` / `0` overrides.
    static func hyperlinks(_ environment: [String: String]) -> Bool {
        if let forced = environment["FORCE_HYPERLINK"] { return forced != "0" && !forced.isEmpty }
        if let program = environment["TERM_PROGRAM"],
            ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "Tabby", "rio"].contains(program)
        {
            return true
        }
        if environment["WT_SESSION"] != nil || environment["KONSOLE_VERSION"] != nil { return true }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        let term = environment["TERM"] ?? ""
        return term.contains("kitty") || term.contains("foot") || term.contains("wezterm") || term.contains("ghostty")
    }

    /// A whole message (history), rendered.
    static func render(_ text: String, with renderer: MarkdownTerminalRenderer) -> String {
        var stream = MarkdownStream(renderer: renderer, showsLiveLine: false)
        return stream.append(text) + stream.finish()
    }
}
