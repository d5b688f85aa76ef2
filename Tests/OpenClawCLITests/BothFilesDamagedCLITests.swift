import Foundation
import OpenClawTestGateway
import Testing

/// The transcript database and its outbox journal both damaged (issue 38.5): the launch says on stderr
/// how many queued messages could not be recovered — here a bound, since the journal's last record is
/// torn and the messages queued had no file to prove them — and delivers what it recovered, once.
@Suite("openclaw-chat: database and outbox journal both damaged")
struct BothFilesDamagedCLITests {
    @Test func theWarningSaysHowManyQueuedMessagesMayBeLost() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let first = try await RestartablePort.startFirst()
        let port = first.port
        let url = first.url
        await first.stop()
        let arguments = ["chat", "--url", url, "--token", "test-token", "--state-dir", state]
        let offline = try await CLIProcess.run(arguments, stdin: "typed in a tunnel\nand another one\n/quit\n")
        #expect(offline.status == 0, "stderr: \(offline.stderr)")

        let database = state + "/transcripts.sqlite"
        for path in [database, database + "-wal"] where FileManager.default.fileExists(atPath: path) {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.write(contentsOf: Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
            try handle.close()
        }
        // The journal's last record torn in half.
        let journal = database + "-outbox"
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        let lastLine = try #require(text.split(separator: "\n").last)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: journal))
        try handle.truncate(atOffset: UInt64(text.utf8.count - lastLine.utf8.count / 2 - 1))
        try handle.close()

        var configuration = TestGatewayConfiguration()
        configuration.port = port
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        let online = try await CLIProcess.run(arguments, stdin: "/quit\n")
        #expect(online.status == 0, "stderr: \(online.stderr)")
        #expect(online.stderr.contains("was unreadable and was moved to"), "\(online.stderr)")
        #expect(
            online.stderr.contains("could not be recovered (the outbox journal was damaged too)"), "\(online.stderr)")
        #expect(!online.stderr.contains("No queued message was lost"), "\(online.stderr)")
    }
}
