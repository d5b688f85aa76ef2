import Foundation
import Testing

@testable import OpenClawCLI

/// Tab completes commands, models and files; Ctrl-R finds what was typed before, as a person sees them.
@Suite("openclaw-chat: Tab completion and Ctrl-R on screen")
struct CompletionScreenTests {
    @Test func tabCompletesACommandThenAModelAndListsWhenItCannotChoose() async throws {
        try await ChatScreenTests.withChat { chat in
            chat.write("/mo\t")
            try await chat.waitForScreen("the command completed", timeout: .seconds(5)) { screen in
                screen.cursorLine == "› /model" && screen.cursorColumn == 9
            }
            // Two models start the same: the common start, then both listed above the line. The models are
            // asked for in the background at start: Tab again until they have come.
            chat.write("scr")
            var completed = false
            for _ in 0..<10 where !completed {
                chat.write("\t")
                completed =
                    (try? await chat.waitForScreen("the common start", timeout: .seconds(1)) { screen in
                        screen.cursorLine == "› /model scripted-agent"
                    }) != nil
            }
            #expect(completed, "\(chat.screen())")
            chat.write("\t")
            try await chat.waitForScreen("both models listed", timeout: .seconds(5)) { screen in
                screen.transcript.contains { $0.contains("scripted-agent") && $0.contains("scripted-agent-mini") }
                    && screen.cursorLine == "› /model scripted-agent"
            }
            chat.write("-\t\r")
            try await chat.waitForScreen("the model switched", timeout: .seconds(5)) { screen in
                screen.transcript.contains { $0.contains("model of main:") && $0.contains("scripted-agent-mini") }
            }
            // Several commands: listed with what they do.
            chat.write("/sess\t")
            try await chat.waitForScreen("/sess completes to /session", timeout: .seconds(5)) {
                $0.cursorLine == "› /session"
            }
            chat.write("\t")
            try await chat.waitForScreen("the session commands listed", timeout: .seconds(5)) { screen in
                screen.transcript.contains { $0.hasPrefix("  /sessions") && $0.contains("list sessions") }
            }
            // The gateway's own commands (commands.list) complete too.
            chat.write("\u{03}/comp\t")
            try await chat.waitForScreen("the gateway's /compact", timeout: .seconds(5)) {
                $0.cursorLine == "› /compact" && $0.cursorColumn == 11
            }
            chat.write("\u{03}")
        }
    }

    @Test func ctrlRFindsAnEarlierMessageAndEnterSendsIt() async throws {
        try await ChatScreenTests.withChat { chat in
            for message in ["the blue door", "something else"] {
                chat.write(message + "\r")
                try await chat.waitForScreen("the reply to \(message)", timeout: .seconds(10)) { screen in
                    screen.transcript.count { $0.hasSuffix("is the scripted test agent.") }
                        == (message == "the blue door" ? 1 : 2)
                }
            }
            chat.write("\u{12}blue")
            try await chat.waitForScreen("the match shown", timeout: .seconds(5)) { screen in
                screen.cursorLine == "(history search) 'blue': the blue door"
            }
            chat.write("\u{12}zz")
            try await chat.waitForScreen("no match", timeout: .seconds(5)) { screen in
                screen.cursorLine.hasPrefix("(no match) 'bluezz': ")
            }
            chat.write("\u{7F}\u{7F}\r")
            try await chat.waitForScreen("the earlier message sent again", timeout: .seconds(10)) { screen in
                screen.transcript.count { $0 == "› the blue door" } == 2
                    && screen.transcript.count { $0.hasSuffix("is the scripted test agent.") } == 3
            }
        }
    }
}

@Suite("Tab completion and history search, without a terminal")
struct InputCompletionTests {
    let sources = CompletionSources(
        commands: [
            .init(name: "model", summary: "m"), .init(name: "session", summary: "s"),
            .init(name: "sessions", summary: "l"), .init(name: "attach", summary: "a"),
        ],
        sessionKeys: ["main", "work"], modelIds: ["gpt-5", "gpt-5-mini"], thinkingWords: ["off", "high"])

    func complete(_ text: String, files: [String: [(String, Bool)]] = [:]) -> (String, [String])? {
        var editor = LineEditor()
        _ = editor.handle(.text(text))
        guard
            let completion = InputCompletion.complete(
                editor.characters, cursor: editor.cursor, sources: sources, home: "/home/me",
                list: { files[$0] ?? [] })
        else { return nil }
        editor.apply(completion)
        return (editor.text, completion.listed.map(\.name))
    }

    @Test func commandsArgumentsAndFiles() throws {
        #expect(complete("/mo")?.0 == "/model ")
        #expect(complete("/se")?.0 == "/session")
        #expect(complete("/session")?.1 == ["session", "sessions"])
        #expect(complete("/session w")?.0 == "/session work")
        #expect(complete("/model gpt")?.0 == "/model gpt-5")
        #expect(complete("hello /mo") == nil)
        #expect(complete("/nothing") == nil)
        let files: [String: [(String, Bool)]] = [
            "/home/me/": [("My Photos", true), ("notes.txt", false), (".hidden", false)],
            "/home/me/My Photos/": [("beach day.png", false)],
        ]
        #expect(complete("/attach ~/My", files: files)?.0 == #"/attach ~/My\ Photos/"#)
        #expect(complete(#"/attach ~/My\ Photos/be"#, files: files)?.0 == #"/attach ~/My\ Photos/beach\ day.png "#)
        #expect(complete("/attach ~/", files: files)?.1 == ["My Photos/", "notes.txt"])
    }

    @Test func historySearchGoesOlderAndGivesTheLineBack() {
        var editor = LineEditor(history: ["alpha one", "beta", "alpha two"])
        _ = editor.handle(.text("draft"))
        _ = editor.handle(.reverseSearch)
        _ = editor.handle(.text("alpha"))
        #expect(editor.text == "alpha two")
        _ = editor.handle(.reverseSearch)
        #expect(editor.text == "alpha one")
        _ = editor.handle(.reverseSearch)
        #expect(editor.text == "alpha one" && editor.searchPrompt == "(history search) 'alpha': ")
        _ = editor.handle(.escape)
        #expect(editor.text == "draft" && editor.search == nil)
        _ = editor.handle(.reverseSearch)
        _ = editor.handle(.text("bet"))
        #expect(editor.handle(.enter) == .submit("beta"))
    }
}
