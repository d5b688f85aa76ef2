import OpenClawTestGateway
import Testing

/// Resizing while a reply streams, a draft typed and the status row shown, in both kinds of terminal:
/// one that re-wraps its rows (VTE, kitty, iTerm2, tmux …: the program is told by `VTE_VERSION`) and one
/// that cuts them (xterm: `XTERM_VERSION`). In the first, a narrowed window puts each row of the live
/// region on several: an erase that goes up as many rows as were drawn leaves the rest on screen.
/// One chat at a time: each screen check replays the whole output, and several at once on a small
/// machine slow the scripted stream past its deadlines.
@Suite("openclaw-chat: resizing in a terminal that reflows, and in one that does not", .serialized)
struct ReflowResizeScreenTests {
    static let question = "tell me"
    static let reply = (1...120).map { "word\($0)" } + ["end."]

    @Test(arguments: [true, false])
    func narrowingWhileAReplyStreamsLeavesNoStaleRow(reflows: Bool) async throws {
        try await Self.streamingWithADraft(reflows: reflows) { chat in
            chat.resize(to: .init(columns: 45, rows: 30))
            try await Self.waitForTheRedraw(chat, wide: false)
        }
    }

    @Test(arguments: [true, false])
    func narrowingTwiceInARowLeavesNoStaleRow(reflows: Bool) async throws {
        try await Self.streamingWithADraft(reflows: reflows) { chat in
            chat.resize(to: .init(columns: 70, rows: 30))
            chat.resize(to: .init(columns: 45, rows: 30))
            try await Self.waitForTheRedraw(chat, wide: false)
        }
    }

    @Test(arguments: [true, false])
    func wideningAgainLeavesNoStaleRow(reflows: Bool) async throws {
        try await Self.streamingWithADraft(reflows: reflows) { chat in
            chat.resize(to: .init(columns: 45, rows: 30))
            try await Self.waitForTheRedraw(chat, wide: false)
            // Not back to 100: the row a terminal that reflows joins from the live row's two must still
            // take two rows at the new width, or a lone clear of it would hide a miscount.
            chat.resize(to: .init(columns: 80, rows: 30))
            try await Self.waitForTheRedraw(chat, wide: true)
        }
    }

    /// A 120-word reply streams and pauses with a long partial row live (word30 to word41, 83 cells at
    /// 100 columns: two rows or more once narrowed); then a draft is typed and `resize` runs, and once
    /// the reply has ended the screen is checked.
    static func streamingWithADraft(
        reflows: Bool, _ resize: (InteractiveProcess) async throws -> Void
    ) async throws {
        let words = reply.dropLast()
        let agent = ScriptedAgent.custom { _ in
            AgentScript(
                steps: [
                    .say(words.prefix(41).joined(separator: " ")), .pause(ms: 4_000),
                    .say(" " + words.dropFirst(41).joined(separator: " ")), .say(" end."),
                ], chunkSize: 8, chunkDelayMs: 10)
        }
        try await ChatScreenTests.withChat(agent: agent, reflows: reflows) { chat in
            chat.type(question, mode: .terminal)
            chat.write("draft")
            try await chat.waitForScreen("the long live row over the draft", timeout: .seconds(10)) { screen in
                screen.cursorLine == "› draft" && screen.cursorRow > 0
                    && screen.rows[screen.cursorRow - 1].hasPrefix("word30 ")
                    && screen.rows[screen.cursorRow - 1].hasSuffix(" word41")
            }
            try await resize(chat)
            try await chat.waitForScreen("the reply's end and its footer", timeout: .seconds(30)) { screen in
                let lines = screen.transcriptLines
                return lines.contains { $0.hasSuffix("word120 end.") }
                    && lines.contains { $0.hasPrefix("  scripted-agent") }
            }
            try await waitForTheRedraw(chat, wide: nil)
            expectNoStaleRow(chat.screen(), wholeReply: reflows)
            chat.write("\u{03}")
        }
    }

    /// Until the input line and the status row under it are drawn for the new width: the status row
    /// whole (cut or re-wrapped by the terminal it is not), naming the model only when wide.
    static func waitForTheRedraw(_ chat: InteractiveProcess, wide: Bool?) async throws {
        try await chat.waitForScreen("the input line redrawn", timeout: .seconds(5)) { screen in
            guard screen.cursorLine == "› draft", screen.cursorColumn == 7,
                screen.rows.indices.contains(screen.cursorRow + 1)
            else { return false }
            let status = screen.rows[screen.cursorRow + 1]
            return ChatScreenTests.isStatusRow(status) && (wide.map { status.contains("scripted-agent") == $0 } ?? true)
        }
    }

    /// After the question: the reply's words each once and in order, its footer, one input line with the
    /// cursor after the draft, one status row under it, and nothing else. A terminal that cuts rows loses
    /// the ends of the rows committed before the narrowing: there only the reply's end is whole.
    static func expectNoStaleRow(_ screen: ScreenEmulator, wholeReply: Bool) {
        let lines = screen.transcriptLines
        guard let echo = lines.lastIndex(of: "› " + question) else {
            Issue.record("no echo of the question:\n\(screen)")
            return
        }
        var words: [String] = []
        var inputLines = 0
        var statusRows = 0
        var footers = 0
        var strays: [String] = []
        for line in lines[(echo + 1)...] {
            let tokens = line.split(separator: " ").map(String.init)
            if line == "› draft" {
                inputLines += 1
            } else if ChatScreenTests.isStatusRow(line) {
                statusRows += 1
            } else if line.hasPrefix("  scripted-agent") {
                footers += 1
            } else if !tokens.isEmpty, tokens.allSatisfy({ $0.hasPrefix("w") || $0 == "end." }) {
                words += tokens
            } else if !line.isEmpty {
                strays.append(line)
            }
        }
        if wholeReply {
            #expect(words == reply, "\(screen)")
        } else {
            #expect(words.suffix(20) == reply.suffix(20), "\(screen)")
        }
        #expect(inputLines == 1 && statusRows == 1 && footers == 1, "\(screen)")
        #expect(strays.isEmpty, "stray rows \(strays):\n\(screen)")
        #expect(lines.suffix(2).first == "› draft", "\(screen)")
        #expect(screen.cursorLine == "› draft" && screen.cursorColumn == 7, "\(screen)")
        #expect(screen.rows.indices.contains(screen.cursorRow + 1), "\(screen)")
        if screen.rows.indices.contains(screen.cursorRow + 1) {
            #expect(ChatScreenTests.isStatusRow(screen.rows[screen.cursorRow + 1]), "\(screen)")
        }
    }
}
