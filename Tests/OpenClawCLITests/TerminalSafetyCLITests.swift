import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// An agent (or a gateway) that writes escape sequences cannot drive the user's terminal: every command
/// that prints its text shows them escaped.
@Suite("openclaw-chat: hostile agent text is shown escaped")
struct TerminalSafetyCLITests {
    /// Retitles the window, clears the screen, moves the cursor and rewrites a line.
    static let hostileReply = "before\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[1A\rafter\u{9B}31m"
    static let escapedReply = "before^[]0;pwned^G^[[2J^[[1A^Mafter<U+009B>31m"
    static let hostileFailure = "boom\u{1B}[2Jgone"

    static var hostileAgent: TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration()
        configuration.agent = .custom { message in
            if message.contains("fail") {
                return AgentScript(steps: [.fail(message: hostileFailure, kind: "unknown")])
            }
            return AgentScript(steps: [.say(hostileReply)], chunkSize: 3)
        }
        return configuration
    }

    /// No escape character, C1 control or lone carriage return of the agent's reached the output.
    static func expectNoRawControls(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = output.unicodeScalars.filter {
            $0.value == 0x1B || $0.value == 0x07 || (0x80...0x9F).contains($0.value)
        }
        #expect(raw.isEmpty, "raw control characters in:\n\(output.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func sendHistoryAndSessionsShowHostileTextEscaped() async throws {
        try await CLITests.withGateway(Self.hostileAgent) { _, common in
            let session = "evil\u{1B}]0;title\u{07}"
            let sent = try await CLIProcess.run(["send", "--session", session] + common + ["hi \u{1B}[31mred"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(sent.stdout.contains(Self.escapedReply), "stdout: \(sent.stdout.debugDescription)")
            Self.expectNoRawControls(sent.stdout + sent.stderr)

            let history = try await CLIProcess.run(["history", "--session", session] + common)
            #expect(history.status == 0, "stderr: \(history.stderr)")
            // (The gateway itself strips control characters from what it is sent.)
            #expect(history.stdout.contains(Self.escapedReply))
            Self.expectNoRawControls(history.stdout + history.stderr)

            let sessions = try await CLIProcess.run(["sessions"] + common)
            #expect(sessions.status == 0, "stderr: \(sessions.stderr)")
            #expect(sessions.stdout.contains("evil^[]0;title^G"))
            Self.expectNoRawControls(sessions.stdout)

            // --json keeps the exact text (JSON escapes it) for scripts.
            let json = try await CLIProcess.run(["history", "--json", "--session", session] + common)
            let texts = try json.stdout.split(separator: "\n").map { try JSONParser().parse(String($0))["text"] }
            #expect(texts.contains(.string(Self.hostileReply)))
        }
    }

    @Test func aFailureMessageFromTheAgentIsEscapedInTheError() async throws {
        try await CLITests.withGateway(Self.hostileAgent) { _, common in
            let result = try await CLIProcess.run(["send"] + common + ["please fail"])
            #expect(result.status == 8, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("boom^[[2Jgone"))
            Self.expectNoRawControls(result.stderr)
        }
    }

    /// Under a real terminal the interactive chat uses escape sequences of its own (the status line),
    /// but none of the agent's: the reply, its echo in the recent history, and the failure are escaped.
    @Test func theInteractiveChatOnATerminalShowsTheReplyEscaped() async throws {
        try await CLITests.withGateway(Self.hostileAgent) { _, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .terminal)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("hello", mode: .terminal)
            try await chat.waitFor(Self.escapedReply)
            chat.type("please fail", mode: .terminal)
            try await chat.waitFor("boom^[[2Jgone")
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0)
            let output = chat.output
            for sequence in ["\u{1B}]0;", "\u{1B}[2J", "\u{1B}[1A", "\u{9B}"] {
                #expect(!output.contains(sequence), "\(sequence.debugDescription) reached the terminal")
            }
        }
    }
}
