import Foundation
import OpenClawTestGateway
import Testing

@testable import OpenClawStore

/// A command that used the transcript database closes it before the process ends. SQLite then moves the
/// WAL into the file and deletes it; a WAL left behind tells the next launch that the last one did not
/// close, and that launch reads the whole file first (`PRAGMA quick_check`: 0.13–0.27 s on a 110 MB store).
@Suite("openclaw-chat: the transcript database is closed at exit")
struct StoreClosedAtExitCLITests {
    @Test(arguments: [(["send", "hello"], ""), (["chat"], "hello\n/quit\n")])
    func aCommandLeavesNoWALBehind(arguments: [String], stdin: String) async throws {
        try await CLITests.withGateway { _, common in
            let state = common[5]
            let result = try await CLIProcess.run(arguments + common, stdin: stdin)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: state + "/transcripts.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: state + "/transcripts.sqlite-wal"), "a WAL was left")
            // What the command stored is in the file itself.
            let found = try await CLIProcess.run(["search", "--json"] + common + ["hello"])
            #expect(found.stdout.contains("\"role\":\"user\""), "stdout: \(found.stdout)")
        }
    }

    /// A WAL that a running `chat` has open is not taken for one a crash left behind: a command run
    /// beside the chat must not read the whole file first. A copy of the same files, which nobody has
    /// open, is.
    @Test func aWALAnotherProcessHasOpenIsNotLeftBehind() async throws {
        try await CLITests.withGateway { _, common in
            let state = common[5]
            let path = state + "/transcripts.sqlite"
            let chat = try InteractiveProcess(["chat"] + common, mode: .pipes)
            defer { chat.killIfRunning() }
            chat.type("hello", mode: .pipes)
            try await chat.waitFor("You said")
            #expect((StoreFile.size(path + "-wal") ?? 0) > 0, "the chat wrote nothing the WAL still holds")
            #expect(StoreFile.isOpenInAnotherProcess(path))
            #expect(!StoreFile.hasWALLeftBehind(path))

            let copy = CLIProcess.temporaryStateDirectory()
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + "/transcripts.sqlite" + suffix)
            }
            #expect(StoreFile.hasWALLeftBehind(copy + "/transcripts.sqlite"), "a WAL nobody has open")

            chat.type("/quit", mode: .pipes)
            #expect(try await chat.waitForExit() == 0, "output: \(chat.output)")
        }
    }

    /// A `send` whose gateway is gone fails, and still closes the database it read meanwhile.
    @Test func aFailedSendLeavesNoWALBehindEither() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let first = try await RestartablePort.startFirst()
        let url = first.url
        // A port where a gateway was: nothing listens there now.
        await first.stop()
        let result = try await CLIProcess.run(
            ["send", "--url", url, "--token", "test-token", "--state-dir", state, "hello"], stdin: "")
        #expect(result.status != 0, "stderr: \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: state + "/transcripts.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: state + "/transcripts.sqlite-wal"), "a WAL was left")
    }
}
