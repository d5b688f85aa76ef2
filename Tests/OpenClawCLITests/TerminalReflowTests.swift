import Testing

@testable import OpenClawCLI

/// Which terminals re-wrap their rows on resize, told from the environment they give their programs.
@Suite("Terminal reflow, told from the environment")
struct TerminalReflowTests {
    static let reflowing: [[String: String]] = [
        ["TERM": "xterm-256color", "VTE_VERSION": "7600"],
        ["TERM": "xterm-kitty"],
        ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"],
        ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"],
        ["TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"],
        ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"],
        ["TERM": "xterm-256color", "TERM_PROGRAM": "vscode"],
        ["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"],
        ["TERM": "xterm-256color", "WT_SESSION": "0f1e"],
        ["TERM": "alacritty"],
        ["TERM": "xterm-256color", "ALACRITTY_WINDOW_ID": "94"],
        ["TERM": "xterm-256color", "KONSOLE_VERSION": "230805"],
        ["TERM": "foot"],
        ["TERM": "foot-extra"],
        // tmux inside xterm: the program talks to tmux, which re-wraps its panes.
        ["TERM": "screen-256color", "TMUX": "/tmp/tmux-1000/default,42,0", "XTERM_VERSION": "XTerm(390)"],
        ["TERM": "tmux-256color"],
        // Unknown (ssh, a container): most terminals reflow.
        ["TERM": "xterm-256color"],
        ["TERM": "xterm"],
        [:],
    ]

    static let truncating: [[String: String]] = [
        ["TERM": "linux"],
        ["TERM": "xterm", "XTERM_VERSION": "XTerm(390)"],
        ["TERM": "xterm-256color", "XTERM_VERSION": "XTerm(390)"],
        ["TERM": "screen", "STY": "1234.pts-0.host"],
        ["TERM": "screen.xterm-256color"],
        // GNU screen inside gnome-terminal: screen is what cuts.
        ["TERM": "screen-256color", "STY": "1234.pts-0.host", "VTE_VERSION": "7600"],
        ["TERM": "st-256color"],
    ]

    @Test(arguments: reflowing)
    func reflowingTerminals(environment: [String: String]) {
        #expect(TerminalReflow.detect(environment: environment) == .reflows)
    }

    @Test(arguments: truncating)
    func truncatingTerminals(environment: [String: String]) {
        #expect(TerminalReflow.detect(environment: environment) == .truncates)
    }

    @Test func theOverrideWinsEitherWay() {
        let kitty = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]
        let linux = ["TERM": "linux"]
        #expect(
            TerminalReflow.detect(environment: kitty.merging(["OPENCLAW_TERMINAL_REFLOW": "0"]) { $1 }) == .truncates)
        #expect(TerminalReflow.detect(environment: linux.merging(["OPENCLAW_TERMINAL_REFLOW": "1"]) { $1 }) == .reflows)
        // Anything else is no override.
        #expect(
            TerminalReflow.detect(environment: linux.merging(["OPENCLAW_TERMINAL_REFLOW": "maybe"]) { $1 })
                == .truncates)
        #expect(
            TerminalReflow.detect(environment: ["TERM": "xterm-kitty", "OPENCLAW_TERMINAL_REFLOW": ""]) == .reflows)
    }
}
