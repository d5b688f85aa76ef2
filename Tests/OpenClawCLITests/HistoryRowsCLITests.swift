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
            #expect(history.stdout.contains("failed: "), "the failed reply is marked: \(history.stdout)")
        }
    }
}
