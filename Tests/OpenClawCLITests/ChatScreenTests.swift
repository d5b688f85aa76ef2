import Foundation
import OpenClawTestGateway
import Testing

/// The interactive chat as a person sees it in a 100×30 terminal: its output replayed through
/// ``ScreenEmulator``, and the screen (rows, cursor, scrollback) compared with what should be there.
@Suite("openclaw-chat: the screen a person sees")
struct ChatScreenTests {
    static let size = InteractiveProcess.WindowSize(columns: 100, rows: 30)
    /// A colour terminal, so replies are rendered as Markdown (the path people see).
    static let colour = ["NO_COLOR": "", "FORCE_HYPERLINK": "0", "TERM": "xterm-256color"]

    /// A paragraph of numbered words, long enough for several rows.
    static func paragraph(words: Int) -> String {
        (1...words).map { "word\($0)" }.joined(separator: " ")
    }

    /// `text` wrapped at `width` the way a person expects: greedy, at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var rows: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                rows.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { rows.append(current) }
        return rows
    }

    /// The transcript without the input line at its end (the prompt's rows).
    /// The transcript without what stands under it: the status row, then the input line.
    static func conversation(_ screen: ScreenEmulator) -> [String] {
        var rows = screen.transcript
        if let last = rows.last, isStatusRow(last) { rows.removeLast() }
        while let last = rows.last, last.hasPrefix("›") { rows.removeLast() }
        return rows
    }

    /// The row under the input line: connection mark, session, model, thinking level …
    static func isStatusRow(_ row: String) -> Bool {
        (row.hasPrefix("● ") || row.hasPrefix("○ offline") || row.hasPrefix("◌ connecting"))
            && row.contains(" · thinking ")
    }

    static func withChat(
        agent: ScriptedAgent = ScriptedAgent(),
        size: InteractiveProcess.WindowSize = size,
        environment: [String: String] = colour,
        reflows: Bool = false,
        _ body: (InteractiveProcess) async throws -> Void
    ) async throws {
        // Deltas as they come: the screen is asserted between them.
        var configuration = TestGatewayConfiguration(deltaThrottleMs: 0)
        configuration.agent = agent
        try await CLITests.withGateway(configuration) { _, common in
            let chat = try InteractiveProcess(
                ["chat"] + common, mode: .terminal, environment: environment, size: size, reflows: reflows)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            try await body(chat)
            chat.endInput(mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "screen:\n\(chat.screen())")
        }
    }

    @Test func aStreamingParagraphWrapsAtTheWidthAsItArrives() async throws {
        let text = Self.paragraph(words: 60)
        let agent = ScriptedAgent.custom { _ in
            AgentScript(steps: [.say(text), .pause(ms: 15_000), .say(" end.")], chunkSize: 16, chunkDelayMs: 5)
        }
        let rows = Self.wrapped(text, width: Self.size.columns)
        try await Self.withChat(agent: agent) { chat in
            chat.type("tell me", mode: .terminal)
            // While the run pauses mid-paragraph: every row of it on screen, wrapped at the width, the
            // cursor after its last word; no row cut short with `…`.
            try await chat.waitForScreen("the paragraph wrapped while it streams", timeout: .seconds(14)) { screen in
                Self.conversation(screen).suffix(rows.count) == rows[...]
            }
            let screen = chat.screen()
            #expect(!screen.transcript.contains { $0.hasPrefix("…") }, "\(screen)")
            // The input line waits under the live row.
            #expect(screen.cursorLine == "›" && screen.rows[screen.cursorRow - 1] == rows.last, "\(screen)")
            try await chat.waitFor("end.")
            try await chat.waitForScreen("the paragraph's end") { screen in
                screen.transcript.contains { $0.hasSuffix("word60 end.") }
            }
            let after = chat.screen().transcript
            let start = try #require(after.firstIndex(of: rows[0]), "\(chat.screen())")
            #expect(Array(after[start..<(start + rows.count - 1)]) == Array(rows.dropLast()), "\(chat.screen())")
        }
    }
}
