import Foundation
import OpenClawTestGateway
import Testing

/// Messages queued offline survive a damaged transcript database: the next launch says where the file
/// went and how many queued messages it recovered, and delivers each exactly once.
@Suite("openclaw-chat: queued messages survive a damaged database")
struct DamagedStoreTests {
    @Test func messagesQueuedOfflineAreDeliveredOnceAfterTheDatabaseIsDamaged() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let first = try await RestartablePort.startFirst()
        let port = first.port
        let url = first.url
        await first.stop()
        let arguments = ["chat", "--url", url, "--token", "test-token", "--state-dir", state]

        let offline = try await CLIProcess.run(arguments, stdin: "typed in a tunnel\nand another one\n/quit\n")
        #expect(offline.status == 0, "stderr: \(offline.stderr)")

        // Garbage over the header: SQLite no longer recognises the file, and the outbox's rows in it
        // (or in its WAL) cannot be read.
        let database = state + "/transcripts.sqlite"
        // The write-ahead log too, when the first launch left one: SQLite would read the first page from
        // it, and the damage to the file's header would go unseen.
        for path in [database, database + "-wal"] where FileManager.default.fileExists(atPath: path) {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.write(contentsOf: Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
            try handle.close()
        }

        var configuration = TestGatewayConfiguration()
        configuration.port = port
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        let online = try await CLIProcess.run(arguments, stdin: "/history\n/quit\n")
        #expect(online.status == 0, "stderr: \(online.stderr)")
        #expect(online.stderr.contains("was unreadable and was moved to \(database).corrupt-"), "\(online.stderr)")
        #expect(online.stderr.contains("2 queued messages were recovered and will be delivered"), "\(online.stderr)")
        #expect(!online.stderr.contains("could not be recovered"))
        // One warning, the terminal's own (the store's log line of it is a notice, shown with --verbose).
        #expect(online.stderr.components(separatedBy: "moved").count == 2, "\(online.stderr)")
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["typed in a tunnel", "and another one"])
        #expect(await gateway.runCount() == 2)

        // The next launch has nothing left to deliver, and nothing to warn about.
        let again = try await CLIProcess.run(arguments, stdin: "/quit\n")
        #expect(!again.stderr.contains("was unreadable"))
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["typed in a tunnel", "and another one"])
        #expect(await gateway.runCount() == 2)
    }

    @Test func aDatabaseThatCannotBeOpenedIsLeftAloneAndTheChatGoesOnInMemory() async throws {
        try await CLITests.withGateway { gateway, common in
            let state = common[5]
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: state) }
            // A directory where SQLite's WAL file should be: no new file would fix that.
            try FileManager.default.createDirectory(
                atPath: state + "/transcripts.sqlite-wal", withIntermediateDirectories: false)
            let result = try await CLIProcess.run(["chat"] + common, stdin: "still works\n/quit\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("could not be opened"), "\(result.stderr)")
            #expect(result.stderr.contains("in memory only"))
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["still works"])
            let files = try FileManager.default.contentsOfDirectory(atPath: state)
            #expect(!files.contains { $0.contains(".corrupt-") })
        }
    }
}
