import OpenClawNode
import OpenClawProtocol
import Testing

@testable import OpenClawCLI
@testable import OpenClawChat

/// The pure parts of the chat's commands: `!command` parsing, `/session N` and the shared output message.
/// (The running line's wording and elapsed time are `LiveActivity`'s, tested with the presentation.)
@Suite("Chat commands: parsing and wording")
struct ChatCommandsTests {
    @Test func bangRunsAShellCommandAndDoubleBangSendsTheText() {
        #expect(ChatInput(line: "!ls -la") == .shell("ls -la"))
        #expect(ChatInput(line: "  ! git status ") == .shell("git status"))
        #expect(ChatInput(line: "!!important") == .message("!important"))
        #expect(ChatInput(line: "!") == .message("!"))
        #expect(ChatInput(line: "/new") == .local(.new, argument: ""))
        #expect(ChatInput(line: "/tools") == .local(.tools, argument: ""))
        #expect(ChatInput(line: "/compact") == .message("/compact"))
    }

    @Test func sessionNumbersReferToTheListShownLast() {
        let sessions = [
            SessionSummary(json: ["key": "agent:main:main"]), SessionSummary(json: ["key": "agent:main:work"]),
        ].compactMap { $0 }
        #expect(SessionPicker.key("2", sessions: sessions) == "agent:main:work")
        #expect(SessionPicker.key("3", sessions: sessions) == nil)
        #expect(SessionPicker.key("0", sessions: sessions) == nil)
        #expect(SessionPicker.key(" research ", sessions: sessions) == "research")
    }

    @Test func sharedOutputIsFencedSoItCannotCloseItsBlockEarly() {
        let outcome = ProcessOutcome(exitCode: 2, stdout: "a ``` b\n", stderr: "no such file")
        let message = ShellEscape.message(command: "cat x", outcome: outcome)
        #expect(message == "I ran `cat x` (exit 2):\n````text\na ``` b\nno such file\n````")
        #expect(ShellEscape.ending(ProcessOutcome(exitCode: nil, signal: 9)) == "killed by signal 9")
        #expect(ShellEscape.ending(ProcessOutcome(exitCode: nil, timedOut: true)) == "stopped after 120 s")
        #expect(ShellEscape.output(ProcessOutcome(exitCode: 0, stdout: "x", truncated: true)) == "x\n… (output cut)")
    }
}
