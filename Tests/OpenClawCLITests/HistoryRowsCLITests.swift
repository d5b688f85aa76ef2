import Foundation
import OpenClawTestGateway
import Testing

/// `history` prints the rows the app shows (`MessageRow`): a turn's tool calls as steps above the reply
/// they led to, never as messages of their own; a failed reply marked as failed.
@Suite("openclaw-chat: history as rows")
struct HistoryRowsCLITests {
    @Test func toolCallsAreStepsOfTheReplyAndAFailedReplyIsMarked() async throws {
        try await CLITests.withGateway { _, common in
            let tool = try await CLIProcess.run(["send"] + common + ["use a tool please"])
            #expect(tool.status == 0, "stderr: \(tool.stderr)")
            let failed = try await CLIProcess.run(["send"] + common + ["this will fail"])
            #expect(failed.status != 0)

            let history = try await CLIProcess.run(["history"] + common)
            #expect(history.status == 0, "stderr: \(history.stderr)")
            let lines = history.stdout.split(separator: "\n").map(String.init)
            let step = try #require(lines.firstIndex { $0.contains("✓ ") }, "a finished step: \(history.stdout)")
            let reply = try #require(lines.firstIndex { $0.contains("agent") }, "\(history.stdout)")
            #expect(step < reply, "the step comes before the reply it led to: \(history.stdout)")
            #expect(!lines.contains { $0.contains("← ") }, "no tool result printed as a message: \(history.stdout)")
            #expect(lines.count { $0.contains(" you  ") } == 2, "\(history.stdout)")
            #expect(history.stdout.contains("Failed: "), "the failed reply is marked: \(history.stdout)")
        }
    }

    /// On a terminal a search hit's matches are in reverse video, and brackets in the message stay brackets;
    /// piped, matches are in brackets.
    @Test func searchMarksMatchesWithStylingOnATerminalAndBracketsWhenPiped() async throws {
        try await CLITests.withGateway { _, common in
            let sent = try await CLIProcess.run(["send"] + common + ["array[0] is the pelican"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            let search = ["search"] + common.filter { $0 != "--token" && $0 != "test-token" } + ["pelican"]
            let terminal = try InteractiveProcess(
                search, mode: .terminal, environment: ["TERM": "xterm-256color", "NO_COLOR": ""])
            defer { terminal.killIfRunning() }
            #expect(try await terminal.waitForExit() == 0)
            #expect(terminal.output.contains("\u{1B}[7mpelican\u{1B}[0m"), "\(terminal.output.debugDescription)")
            #expect(terminal.output.contains("array[0]"))
            let piped = try await CLIProcess.run(search)
            #expect(piped.stdout.contains("array[0] is the [pelican]"), "\(piped.stdout)")
        }
    }
}
