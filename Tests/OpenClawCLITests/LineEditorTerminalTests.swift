import Foundation
import OpenClawTestGateway
import Testing

/// The interactive chat's line editor driven through a pseudo-terminal, as a person types: editing keys,
/// history across launches, Ctrl+J, a bracketed paste, Ctrl-C on a half-written line, Esc, `/edit`.
@Suite("openclaw-chat: the line editor under a terminal")
struct LineEditorTerminalTests {
    static func withChat(
        environment: [String: String] = [:],
        state: String? = nil,
        _ body: (InteractiveProcess, TestGateway, [String]) async throws -> Void
    ) async throws {
        try await CLITests.withGateway { gateway, common in
            var arguments = common
            if let state { arguments[5] = state }
            let chat = try InteractiveProcess(["chat"] + arguments, mode: .terminal, environment: environment)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            try await body(chat, gateway, arguments)
            chat.endInput(mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "output:\n\(chat.output)")
        }
    }

    @Test func editingKeysChangeTheLineBeforeItIsSent() async throws {
        try await Self.withChat { chat, gateway, _ in
            // "helo", ←, "l", End, " world", Ctrl+W (drops "world"), "there", Alt+B, Ctrl+K, "everyone"
            chat.write("helo\u{1B}[Dl\u{1B}[F world\u{17}there\u{1B}b\u{0B}everyone\r")
            try await chat.waitFor("You said: \"hello everyone\"")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["hello everyone"])
        }
    }

    @Test func ctrlJAndAPasteMakeOneMultiLineMessage() async throws {
        try await Self.withChat { chat, gateway, _ in
            chat.write("first line\u{0A}second line\r")
            try await chat.waitFor("second line\". This is")
            chat.write("\u{1B}[200~pasted one\rpasted two\u{1B}[201~\r")
            try await chat.waitFor("pasted two\". This is")
            #expect(
                await gateway.sentUserMessages(sessionKey: "main") == [
                    "first line\nsecond line", "pasted one\npasted two",
                ])
        }
    }

    @Test func historyIsRecalledWithTheUpArrowAlsoInTheNextSession() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        try await Self.withChat(state: state) { chat, gateway, _ in
            chat.write("remember me\r")
            try await chat.waitFor("You said: \"remember me\"")
            chat.write("\u{1B}[A\r")
            try await chat.waitFor("You said: \"remember me\"")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["remember me", "remember me"])
        }
        try await Self.withChat(state: state) { chat, gateway, _ in
            chat.write("\u{1B}[A!\r")
            try await chat.waitFor("You said: \"remember me!\"")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["remember me!"])
        }
    }

    @Test func ctrlCClearsAHalfWrittenLineAndEscStopsAReply() async throws {
        try await Self.withChat { chat, gateway, _ in
            chat.write("never sent\u{03}")
            chat.write("slow\r")
            try await chat.waitFor("word3 ")
            chat.write("\u{1B}")
            try await chat.waitFor("■ stopped")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["slow"])
        }
    }

    @Test func whatIsTypedWhileAReplyStreamsWaitsInTheInputLineAndIsSentAfter() async throws {
        try await Self.withChat { chat, gateway, _ in
            chat.write("slow\r")
            try await chat.waitFor("word3 ")
            // Typed mid-reply, without Enter: kept for the input line, not sent, not mixed into the reply
            // (the line is drawn again once the reply's line ends).
            chat.write("draft message")
            try await chat.waitFor("word60 ", timeout: .seconds(60))
            try await chat.waitFor("› draft message")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["slow"])
            let output = chat.output
            let reply = try #require(output.range(of: "word1 ").map { output[$0.lowerBound...] })
            let words = try #require(reply.range(of: "word60 ").map { reply[..<$0.upperBound] })
            #expect(words == (1...60).map { "word\($0) " }.joined(), "output:\n\(output)")
            chat.write("\r")
            try await chat.waitFor("You said: \"draft message\"")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["slow", "draft message"])
        }
    }

    @Test func aMarkdownReplyIsRenderedInTheChatOnAColourTerminal() async throws {
        let colour = ["NO_COLOR": "", "COLUMNS": "60", "FORCE_HYPERLINK": "0", "TERM": "xterm-256color"]
        try await Self.withChat(environment: colour) { chat, _, _ in
            chat.write("markdown please\r")
            // The list closes the reply: everything asserted below was rendered before it.
            try await chat.waitFor("keep ")
            try await chat.waitFor("\u{1B}[3mDownloads\u{1B}[0m tidy")
            let rows = ScreenModel(chat.output).lines.map(ScreenModel.strippingStyles)
            #expect(rows.contains { $0.hasPrefix("┌") && $0.contains("┬") }, "screen:\n\(rows.joined(separator: "\n"))")
            #expect(rows.contains("│ Caches    │ 14.2 GB │ +3.1 GB │"))
            #expect(rows.contains { $0.hasPrefix("╭─ sh ") })
            #expect(!rows.contains { $0.contains("```") || $0.contains("|:---") })
        }
    }

    @Test func editOpensTheEditorAndSendsWhatWasWritten() async throws {
        let directory = CLIProcess.temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/editor.sh"
        try "#!/bin/sh\nprintf 'written in the editor\\nsecond line\\n' > \"$1\"\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)
        try await Self.withChat(environment: ["EDITOR": script, "VISUAL": ""]) { chat, gateway, _ in
            chat.write("/edit\r")
            try await chat.waitFor("second line\". This is")
            #expect(
                await gateway.sentUserMessages(sessionKey: "main") == ["written in the editor\nsecond line"])
        }
    }
}
