#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An inline-image escape protocol the terminal is known to speak, detected from what the terminal
/// itself sets, never guessed: iTerm2 (`TERM_PROGRAM=iTerm.app`) and kitty (`TERM=xterm-kitty` or
/// `KITTY_WINDOW_ID`). Inside tmux or screen the escapes would need passthrough the user may not have
/// enabled, so none is assumed there.
enum TerminalImageProtocol: Equatable {
    case iTerm2
    case kitty

    /// Base64 characters per kitty graphics chunk (the protocol's maximum).
    static let kittyChunk = 4096

    init?(environment: [String: String], stdoutIsTTY: Bool) {
        guard stdoutIsTTY else { return nil }
        let term = environment["TERM"] ?? ""
        if environment["TMUX"].map({ !$0.isEmpty }) ?? false || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            return nil
        }
        if environment["TERM_PROGRAM"] == "iTerm.app" {
            self = .iTerm2
        } else if term == "xterm-kitty" || !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty {
            self = .kitty
        } else {
            return nil
        }
    }

    /// The escape sequence that draws `data`, or nil when this protocol cannot draw it (kitty is sent
    /// PNG only: other formats would have to be decoded here first).
    func escape(for data: Data) -> String? {
        let base64 = data.base64EncodedString()
        switch self {
        case .iTerm2:
            return "\u{1B}]1337;File=inline=1;size=\(data.count);preserveAspectRatio=1:\(base64)\u{07}\n"
        case .kitty:
            guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
            var text = ""
            var rest = Substring(base64)
            var first = true
            repeat {
                let chunk = rest.prefix(Self.kittyChunk)
                rest = rest.dropFirst(chunk.count)
                let more = rest.isEmpty ? 0 : 1
                text += "\u{1B}_G" + (first ? "a=T,f=100,m=\(more)" : "m=\(more)") + ";" + chunk + "\u{1B}\\"
                first = false
            } while !rest.isEmpty
            return text + "\n"
        }
    }
}
