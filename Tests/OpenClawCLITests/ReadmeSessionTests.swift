import Foundation
import OpenClawTestGateway
import Testing

/// The README's session example is what the program shows: the same messages typed into the chat in a
/// 72-column terminal, the screen read through ``ScreenEmulator`` and compared with the README's block
/// (step durations, which vary, compared as `(N.N s)`).
@Suite("README: the session example")
struct ReadmeSessionTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")
    static let marker = "A session in the interactive chat (the demo gateway, a 72-column terminal; colours left out):"

    /// The example block of the README.
    static func example() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: marker + "\n\n```text\n"))
        let end = try #require(text[start.upperBound...].range(of: "\n```\n"))
        return text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    static func normalised(_ rows: [String]) -> [String] {
        rows.map { $0.replacing(/\(\d+\.\d s\)/, with: "(N.N s)") }
    }

    @Test func theSessionExampleIsWhatTheProgramShows() async throws {
        try await ChatScreenTests.withChat(size: .init(columns: 72, rows: 60)) { chat in
            for (message, last) in [
                ("markdown please", "keep Downloads tidy"), ("use a tool please", "returned status ok."),
                ("/tools", "{\"status\":\"ok\"}"),
            ] {
                chat.type(message, mode: .terminal)
                try await chat.waitForScreen(message, timeout: .seconds(20)) { screen in
                    let rows = ChatScreenTests.conversation(screen)
                    guard let echo = rows.lastIndex(of: "› " + message) else { return false }
                    return rows[echo...].contains { $0.hasSuffix(last) }
                        && (message == "/tools" || rows.last?.hasPrefix("  scripted-agent") == true)
                }
            }
            let rows = ChatScreenTests.conversation(chat.screen())
            let first = try #require(rows.firstIndex(of: "› markdown please"))
            let shown = Array(rows[first...])
            #expect(Self.normalised(shown) == Self.normalised(try Self.example()), "\(shown.joined(separator: "\n"))")
        }
    }
}
