import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The interactive chat across launches: typed while the gateway is down, delivered once by the next
/// launch; the stored transcript searchable offline; a corrupt database moved aside, not fatal.
@Suite("openclaw-chat: offline queue, search, corrupt cache")
struct OfflineAndSearchTests {
    @Test func aMessageTypedOfflineIsDeliveredOnceByTheNextLaunchAndFoundBySearch() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let first = try await RestartablePort.startFirst()
        let port = first.port
        let url = first.url
        await first.stop()

        let offline = try await CLIProcess.run(
            ["chat", "--url", url, "--token", "test-token", "--state-dir", state],
            stdin: "written in a tunnel\n/quit\n"
        )
        #expect(offline.status == 0, "stderr: \(offline.stderr)")
        #expect(offline.stdout.contains("queued"))
        #expect(offline.stderr.contains("1 message was not delivered yet: kept on this device"), "\(offline.stderr)")

        var configuration = TestGatewayConfiguration()
        configuration.port = port
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        let online = try await CLIProcess.run(
            ["chat", "--url", url, "--token", "test-token", "--state-dir", state], stdin: "/history\n/quit\n")
        #expect(online.status == 0, "stderr: \(online.stderr)")
        #expect(!online.stderr.contains("not delivered"), "delivered this time: \(online.stderr)")
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["written in a tunnel"])

        // A third launch has nothing left to deliver.
        _ = try await CLIProcess.run(
            ["chat", "--url", url, "--token", "test-token", "--state-dir", state], stdin: "/quit\n")
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["written in a tunnel"])

        let found = try await CLIProcess.run(["search", "--json", "--url", url, "--state-dir", state, "tunnel"])
        #expect(found.status == 0, "stderr: \(found.stderr)")
        let hits = try found.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        // The message once, and the scripted agent's echo of it.
        let userHits = hits.filter { $0["role"] == "user" }
        #expect(userHits.count == 1)
        #expect(userHits.first?["snippet"]?.stringValue?.contains("[tunnel]") == true)
        #expect(hits.allSatisfy { $0["gateway"]?.stringValue == url })

        let elsewhere = try await CLIProcess.run(
            ["search", "--json", "--url", "ws://127.0.0.1:1", "--state-dir", state, "tunnel"])
        #expect(elsewhere.stdout.isEmpty, "another gateway's transcripts are kept apart")
        let everywhere = try await CLIProcess.run(["search", "--all-gateways", "--state-dir", state, "tunnel"])
        #expect(everywhere.stdout.contains(url))
    }

    @Test func aCorruptTranscriptDatabaseIsMovedAsideAndTheChatGoesOn() async throws {
        try await CLITests.withGateway { gateway, common in
            let state = common[5]
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
                to: URL(fileURLWithPath: state + "/transcripts.sqlite"))
            let result = try await CLIProcess.run(["chat"] + common, stdin: "still works\n/quit\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("was unreadable and was moved"))
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["still works"])
            let files = try FileManager.default.contentsOfDirectory(atPath: state)
            #expect(files.contains { $0.hasPrefix("transcripts.sqlite.corrupt-") })
        }
    }

    /// `send` records the exchange in the same database as the chat, so `search` finds it offline.
    @Test func whatSendSaidIsFoundBySearch() async throws {
        try await CLITests.withGateway { _, common in
            let sent = try await CLIProcess.run(["send"] + common + ["remember the quokka"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            let found = try await CLIProcess.run(["search"] + common + ["quokka"])
            #expect(found.status == 0, "stderr: \(found.stderr)")
            #expect(found.stdout.contains("[quokka]"), "\(found.stdout)")
            #expect(found.stdout.contains("main"))
        }
    }
}
