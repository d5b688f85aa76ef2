import Foundation
import Testing

@testable import OpenClawCLI

@Suite("Inline images: detected, never guessed")
struct TerminalImageProtocolTests {
    private let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 5000))

    @Test func detection() {
        #expect(TerminalImageProtocol(environment: ["TERM_PROGRAM": "iTerm.app"], stdoutIsTTY: true) == .iTerm2)
        #expect(TerminalImageProtocol(environment: ["TERM": "xterm-kitty"], stdoutIsTTY: true) == .kitty)
        #expect(TerminalImageProtocol(environment: ["KITTY_WINDOW_ID": "1"], stdoutIsTTY: true) == .kitty)
        #expect(TerminalImageProtocol(environment: ["TERM": "xterm-256color"], stdoutIsTTY: true) == nil)
        #expect(TerminalImageProtocol(environment: ["TERM": "xterm-kitty"], stdoutIsTTY: false) == nil)
        #expect(
            TerminalImageProtocol(environment: ["TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/t,1,0"], stdoutIsTTY: true)
                == nil)
        #expect(
            TerminalImageProtocol(environment: ["TERM": "screen-256color", "KITTY_WINDOW_ID": "1"], stdoutIsTTY: true)
                == nil)
    }

    @Test func iTerm2SendsOneFileEscape() throws {
        let escape = try #require(TerminalImageProtocol.iTerm2.escape(for: png))
        #expect(escape.hasPrefix("\u{1B}]1337;File=inline=1;size=5008;"))
        #expect(escape.contains(png.base64EncodedString()))
    }

    @Test func kittySendsPNGInChunks() throws {
        let escape = try #require(TerminalImageProtocol.kitty.escape(for: png))
        let chunks = escape.components(separatedBy: "\u{1B}\\").filter { $0.hasPrefix("\u{1B}_G") }
        #expect(chunks.count == 2)
        #expect(chunks.first?.hasPrefix("\u{1B}_Ga=T,f=100,m=1;") == true)
        #expect(chunks.last?.hasPrefix("\u{1B}_Gm=0;") == true)
        #expect(TerminalImageProtocol.kitty.escape(for: Data([0xFF, 0xD8, 0xFF])) == nil, "JPEG is not sent to kitty")
    }
}
