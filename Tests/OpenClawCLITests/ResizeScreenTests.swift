import OpenClawTestGateway
import Testing

/// The window narrowed while a reply streams (SIGWINCH): the rest of the reply is laid out for the new
/// width, no row is left behind stale, and the input line is drawn again for the new width.
@Suite("openclaw-chat: resizing during a stream")
struct ResizeScreenTests {
    /// The words of the reply's rows: after the echoed question, before its footer and the input line.
    static func replyWords(_ screen: ScreenEmulator, question: String) -> [[String]] {
        let rows = ChatScreenTests.conversation(screen)
        guard let start = rows.firstIndex(of: "› " + question) else { return [] }
        let reply = rows[(start + 1)...].prefix { !$0.hasPrefix("  scripted-agent") }
        return reply.map { $0.split(separator: " ").map(String.init) }
    }

    /// A reply of 120 words and ` end.`, streamed 8 bytes at a time.
    static let paragraphAgent = ScriptedAgent.custom { _ in
        AgentScript(
            steps: [.say(ChatScreenTests.paragraph(words: 120)), .say(" end.")], chunkSize: 8, chunkDelayMs: 30)
    }

    /// Once the reply has ended: what was committed before the (first) resize stays as it was (cut by this
    /// terminal); every row after it holds whole words, each once, in order, for the new width.
    static func expectTheRestLaidOutOnce(_ chat: InteractiveProcess) async throws {
        try await chat.waitForScreen("the reply's end", timeout: .seconds(20)) { screen in
            screen.transcript.contains { $0.hasSuffix("word120 end.") }
        }
        let before = replyWords(chat.screen(resizesApplied: 0), question: "tell me").dropLast()
        let after = replyWords(chat.screen(), question: "tell me")
        let screen = chat.screen()
        try #require(after.count > before.count, "\(screen)")
        let rest = after[before.count...].joined()
        let expected = (before.joined().count + 1...120).map { "word\($0)" } + ["end."]
        #expect(Array(rest) == expected, "\(screen)")
    }

    @Test func narrowingMidParagraphLaysOutTheRestForTheNewWidth() async throws {
        try await ChatScreenTests.withChat(agent: Self.paragraphAgent) { chat in
            chat.type("tell me", mode: .terminal)
            try await chat.waitForScreen("two rows of the reply", timeout: .seconds(10)) { screen in
                Self.replyWords(screen, question: "tell me").count >= 3
            }
            chat.write("draft")
            try await chat.waitForScreen("the draft under the live row", timeout: .seconds(5)) { screen in
                screen.cursorLine == "› draft"
            }
            chat.resize(to: .init(columns: 60, rows: 30))
            try await chat.waitForScreen("the input line redrawn", timeout: .seconds(5)) { screen in
                screen.cursorLine == "› draft" && screen.cursorColumn == 7
            }
            try await Self.expectTheRestLaidOutOnce(chat)
            let screen = chat.screen()
            #expect(screen.rows.allSatisfy { $0.count <= 60 }, "\(screen)")
            chat.write("\u{03}")
        }
    }

    /// The window narrows while the program's next live row, laid out for the old width, is still on its
    /// way to the terminal: the terminal writes it at the new width. Wrapped, it would take two rows and
    /// the program's next `CR ESC[2K` would clear only the second, leaving the first behind for good.
    @Test func aLiveRowWrittenForTheOldWidthLeavesNoRowBehind() async throws {
        try await ChatScreenTests.withChat(agent: Self.paragraphAgent) { chat in
            chat.type("tell me", mode: .terminal)
            try await chat.waitForScreen("a live row wider than 62 columns", timeout: .seconds(10)) { screen in
                let rows = Self.replyWords(screen, question: "tell me")
                return rows.count >= 2 && (rows.last?.joined(separator: " ").count ?? 0) > 62
            }
            let terminalResizedHere = chat.outputCount
            // The program writes its next live row, for 80 columns, before the terminal has read it.
            let deadline = ContinuousClock.now + .seconds(5)
            while chat.outputCount <= terminalResizedHere + 8, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            try #require(chat.outputCount > terminalResizedHere + 8, "no delta after the wide live row")
            chat.resize(to: .init(columns: 60, rows: 30), asOfOutput: terminalResizedHere)
            try await Self.expectTheRestLaidOutOnce(chat)
            chat.write("\u{03}")
        }
    }
}
