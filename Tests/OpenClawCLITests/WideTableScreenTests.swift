import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// Tables and cards count terminal cells: a table of wide characters and emoji keeps its borders in
/// line on screen, in a window narrow enough that its cells wrap.
@Suite("openclaw-chat: wide characters in tables, on screen")
struct WideTableScreenTests {
    static let table = """
        | 名前 | 状態 | note |
        |---|---|---|
        | 東京 | 🎉 ok | 日本語のテキストがここで長く続いて折り返されます |
        | Zürich | ✅ | e\u{301}te\u{301} 👩‍👩‍👧 🇯🇵 |
        """

    @Test func aTableOfWideTextKeepsItsBordersInLine() async throws {
        let agent = ScriptedAgent.custom { _ in AgentScript(steps: [.say(Self.table)], chunkSize: 400) }
        try await ChatScreenTests.withChat(agent: agent, size: .init(columns: 50, rows: 30)) { chat in
            chat.type("table", mode: .terminal)
            try await chat.waitForScreen("the table's last border", timeout: .seconds(10)) { screen in
                screen.transcript.contains { $0.hasPrefix("└") }
            }
            let rows = chat.screen().transcript.filter { $0.hasPrefix("│") || $0.hasPrefix("┌") || $0.hasPrefix("└") }
            #expect(rows.count >= 6, "\(chat.screen())")
            let widths = Set(rows.map { DisplayWidth.of($0) })
            #expect(widths.count == 1, "rows of different widths \(widths):\n\(rows.joined(separator: "\n"))")
            #expect((widths.first ?? 0) <= 50, "\(rows.joined(separator: "\n"))")
        }
    }
}
