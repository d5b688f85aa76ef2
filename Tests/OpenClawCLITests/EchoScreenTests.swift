import Foundation
import OpenClawTestGateway
import Testing

/// Everything submitted is echoed on its own line: a message typed while a reply streams, what `/edit`
/// wrote, a command typed during a run (never glued to the progress line).
@Suite("openclaw-chat: what was submitted, on screen")
struct EchoScreenTests {
    /// Typed while a reply streams: echoed over its own reply, once the one streaming has ended, so
    /// each reply stands under its question.
    @Test func aMessageTypedWhileAReplyStreamsIsEchoedOnItsOwnLine() async throws {
        try await ChatScreenTests.withChat { chat in
            chat.type("slow", mode: .terminal)
            try await chat.waitFor("word3 ")
            chat.type("second message", mode: .terminal)
            try await chat.waitForScreen("the echo over its reply", timeout: .seconds(60)) { screen in
                let rows = screen.transcript
                guard let echo = rows.firstIndex(of: "› second message"),
                    let reply = rows.firstIndex(where: { $0.hasPrefix("You said: \"second message\"") }),
                    let slowEnd = rows.firstIndex(where: { $0.hasSuffix("word60") })
                else { return false }
                return slowEnd < echo && echo < reply
            }
            let transcript = chat.screen().transcript
            #expect(transcript.contains("› slow"), "\(chat.screen())")
            #expect(!transcript.contains { $0.contains("second message") && $0.contains("word") }, "\(chat.screen())")
        }
    }

    @Test func whatEditWroteIsEchoed() async throws {
        let directory = CLIProcess.temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/editor.sh"
        try "#!/bin/sh\nprintf 'written in the editor\\nsecond line\\n' > \"$1\"\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)
        var environment = ChatScreenTests.colour
        environment["EDITOR"] = script
        environment["VISUAL"] = ""
        try await ChatScreenTests.withChat(environment: environment) { chat in
            chat.type("/edit", mode: .terminal)
            try await chat.waitFor("second line\". This is")
            try await chat.waitForScreen("the message echoed", timeout: .seconds(5)) { screen in
                let rows = screen.transcript
                guard let first = rows.firstIndex(of: "› written in the editor") else { return false }
                return first + 1 < rows.count && rows[first + 1] == "  second line"
            }
        }
    }

    @Test func approveTypedDuringARunGetsLinesOfItsOwn() async throws {
        var configuration = TestGatewayConfiguration(deltaThrottleMs: 0)
        configuration.agent = ScriptedAgent()
        try await CLITests.withGateway(configuration) { _, common in
            let chat = try InteractiveProcess(
                ["chat", "--approvals"] + common, mode: .terminal, environment: ChatScreenTests.colour,
                size: ChatScreenTests.size)
            defer { chat.killIfRunning() }
            try await chat.waitFor("approvals on")
            chat.type("run a command", mode: .terminal)
            try await chat.waitFor("/approve ")
            // The run's progress line ticks meanwhile.
            try await chat.waitForScreen("the progress line", timeout: .seconds(5)) { screen in
                screen.transcript.contains { $0.hasPrefix("thinking…") }
            }
            chat.type("/approve", mode: .terminal)
            try await chat.waitFor("Done: the command ran")
            try await chat.waitForScreen("the outcome on a row of its own", timeout: .seconds(5)) { screen in
                screen.transcript.contains { $0.hasPrefix("✓") && $0.contains("allowed once by you") }
                    && screen.transcript.contains("› /approve")
            }
            let screen = chat.screen()
            #expect(!screen.transcript.contains { $0.contains("allowed once") && $0.contains("…") }, "\(screen)")
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "\(chat.screen())")
        }
    }
}
