import Testing

/// The input line counts terminal cells, not characters: wide characters and emoji take two, and a line
/// longer than the terminal wraps over several rows, redrawn in place at each key.
@Suite("openclaw-chat: the input line on screen")
struct InputLineScreenTests {
    @Test func theCursorStandsAfterWideCharactersAndEmoji() async throws {
        try await ChatScreenTests.withChat { chat in
            chat.write("日本語 テスト 🎉 ok")
            // 2 (prompt) + 6 + 1 + 6 + 1 + 2 + 1 + 2 cells.
            try await chat.waitForScreen("the cursor after `ok`", timeout: .seconds(5)) { screen in
                screen.cursorLine == "› 日本語 テスト 🎉 ok" && screen.cursorColumn == 21
            }
            chat.write("\u{03}")  // clears the line, so that Ctrl-D quits
        }
    }

    @Test func aWideLineLongerThanTheTerminalWrapsWithoutCopies() async throws {
        try await ChatScreenTests.withChat { chat in
            let line = String(repeating: "日", count: 60)
            for character in line { chat.write(String(character)) }
            // 2 + 120 cells: the prompt and 49 characters on the first row, 11 on the second.
            let first = "› " + String(repeating: "日", count: 49)
            let second = String(repeating: "日", count: 11)
            try await chat.waitForScreen("the line on two rows", timeout: .seconds(5)) { screen in
                screen.cursorLine == second && screen.cursorColumn == 22
                    && screen.rows[screen.cursorRow - 1] == first
            }
            var screen = chat.screen()
            #expect(screen.transcript.count { $0.contains("日日") } == 2, "no copy left behind:\n\(screen)")
            // Back to one row: the second row goes.
            chat.write(String(repeating: "\u{7F}", count: 20))
            let shorter = "› " + String(repeating: "日", count: 40)
            try await chat.waitForScreen("the line on one row", timeout: .seconds(5)) { screen in
                screen.cursorLine == shorter && screen.cursorColumn == 82
            }
            screen = chat.screen()
            #expect(screen.transcript.count { $0.contains("日日") } == 1, "\(screen)")
            chat.write("\r")
            try await chat.waitForScreen("the echoed line, once") { screen in
                screen.transcript.count { $0.hasPrefix("› 日") } == 1 && screen.transcript.contains(shorter)
                    && screen.transcript.contains { $0.hasSuffix("is the scripted test agent.") }
            }
        }
    }

    @Test func ctrlLClearsTheScreenAndDrawsTheLineAgainAtTheTop() async throws {
        try await ChatScreenTests.withChat { chat in
            chat.write("abc")
            try await chat.waitForScreen("the line", timeout: .seconds(5)) { $0.cursorLine == "› abc" }
            chat.write("\u{0C}")
            try await chat.waitForScreen("the line alone at the top", timeout: .seconds(5)) { screen in
                screen.rows.first == "› abc" && screen.cursorRow == 0 && screen.cursorColumn == 5
                    && ChatScreenTests.isStatusRow(screen.rows[1]) && screen.rows.dropFirst(2).allSatisfy(\.isEmpty)
            }
            chat.write("\u{03}")
        }
    }
}
