import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// `send --file` end to end: the CLI as a subprocess, the test gateway reading back what arrived.
@Suite("openclaw-chat: attachments")
struct AttachmentCLITests {
    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let directory = CLIProcess.temporaryStateDirectory() + "-files"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + randomBytes(300_000)
    static let pdf: [UInt8] = Array("%PDF-1.7\n%\u{e2}\u{e3}\n".utf8) + randomBytes(120_001)

    @Test func anImageAndAPDFReachTheGatewayByteForByteAndHistoryShowsThem() async throws {
        let image = try Self.file("photo.png", Self.png)
        let document = try Self.file("report.pdf", Self.pdf)
        try await CLITests.withGateway { gateway, common in
            let sent = try await CLIProcess.run(
                ["send"] + common + ["--file", image, "--file", document, "what are these?"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            let received = await gateway.receivedAttachments()
            #expect(received.count == 2)
            #expect(received.first?.bytes == Self.png)
            #expect(received.first?.fileName == "photo.png")
            #expect(received.first?.declaredType == "image")
            #expect(received.first?.declaredMimeType == "image/png")
            #expect(received.last?.bytes == Self.pdf)
            #expect(received.last?.declaredType == "file")
            #expect(received.last?.declaredMimeType == "application/pdf")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["what are these?"])

            let history = try await CLIProcess.run(["history"] + common)
            #expect(history.status == 0, "stderr: \(history.stderr)")
            #expect(history.stdout.contains("[image: image/png, 300 kB]"))
            #expect(history.stdout.contains("[file: report.pdf, 120 kB]"))
            let json = try await CLIProcess.run(["history", "--json"] + common)
            let user = try json.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }.first
            let attachments = user?["attachments"]?.arrayValue ?? []
            #expect(attachments.map { $0["type"] } == ["image", "file"])
            #expect(attachments.last?["size"] == .int(Self.pdf.count))

            // Found by the names of its files, the image's too (the gateway keeps only its type and size:
            // the name this device sent it under is stored with the message).
            for name in ["photo", "report.pdf"] {
                let found = try await CLIProcess.run(["search", "--json"] + common + [name])
                let hits = try found.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
                #expect(hits.map { $0["role"] } == ["user"], "\(name): \(found.stdout) \(found.stderr)")
            }
        }
    }

    /// The interactive chat's `/attach`: a missing file and one over the limit are refused when attached,
    /// with the reason; `/detach` drops what was attached; what stays goes with the next message, intact.
    @Test func theChatAttachesFilesToTheNextMessage() async throws {
        let small = Array(Self.png.prefix(300))
        let image = try Self.file("small.png", small)
        let document = try Self.file("report.pdf", Self.pdf)
        let big = try Self.file("big.png", Array(Self.png.prefix(600)))
        let limits = TestAttachmentLimits(maxBytes: 200_000, maxImageBytes: 500)
        try await CLITests.withGateway(TestGatewayConfiguration(attachmentLimits: limits)) { gateway, common in
            let script = [
                "/attach \(document)", "/detach", "/attach /nonexistent/nope.png", "/attach \(big)",
                "/attach \(image)", "/attach \(document)", "two files?", "and now nothing attached",
                "/history 4", "/attach \(image)", "/quit",
            ]
            let result = try await CLIProcess.run(["chat"] + common, stdin: script.joined(separator: "\n") + "\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("📎 [file: report.pdf, 120 kB] goes with your next message"))
            #expect(result.stdout.contains("the file was dropped"))
            #expect(result.stdout.contains("go with your next message (2 files)"))
            #expect(result.stderr.contains("nope.png could not be read"), "\(result.stderr)")
            #expect(
                result.stderr.contains("big.png") && result.stderr.contains("600 bytes")
                    && result.stderr.contains("500 bytes"),
                "refused with its name, its size and the limit: \(result.stderr)")
            let received = await gateway.receivedAttachments()
            #expect(received.map(\.fileName) == ["small.png", "report.pdf"])
            #expect(received.first?.bytes == small)
            #expect(received.last?.bytes == Self.pdf)
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["two files?", "and now nothing attached"])
            #expect(result.stderr.contains("1 attached file was not sent"), "said at the end: \(result.stderr)")
            // Listed under the message when it is sent, and again by /history (from the gateway's copy).
            #expect(result.stdout.occurrences(of: "[file: report.pdf, 120 kB]") == 4, "\(result.stdout)")
            #expect(result.stdout.contains("[image: "), "\(result.stdout)")
        }
    }

    /// A photo attached while the gateway is down waits in the outbox on disk: the next launch delivers it
    /// once, byte for byte, although the original file is gone by then; the launch after has nothing to send.
    @Test func aPhotoQueuedOfflineIsDeliveredOnceByTheNextLaunch() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let image = try Self.file("tunnel.png", Self.png)
        let first = try await RestartablePort.startFirst()
        let url = first.url
        await first.stop()
        let common = ["--url", url, "--token", "test-token", "--state-dir", state]

        let offline = try await CLIProcess.run(
            ["chat"] + common, stdin: "/attach \(image)\na photo from the tunnel\n/quit\n")
        #expect(offline.status == 0, "stderr: \(offline.stderr)")
        #expect(offline.stdout.contains("queued"), "\(offline.stdout)")
        #expect(offline.stderr.contains("1 message was not delivered yet: kept on this device"), "\(offline.stderr)")
        try FileManager.default.removeItem(atPath: image)

        var configuration = TestGatewayConfiguration()
        configuration.port = first.port
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        let online = try await CLIProcess.run(["chat"] + common, stdin: "/quit\n")
        #expect(online.status == 0, "stderr: \(online.stderr)")
        #expect(!online.stderr.contains("not delivered"), "delivered this time: \(online.stderr)")
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["a photo from the tunnel"])
        let received = await gateway.receivedAttachments()
        #expect(received.map(\.fileName) == ["tunnel.png"])
        #expect(received.first?.bytes == Self.png)

        _ = try await CLIProcess.run(["chat"] + common, stdin: "/quit\n")
        #expect(await gateway.sentUserMessages(sessionKey: "main") == ["a photo from the tunnel"])
        #expect(await gateway.receivedAttachments().count == 1, "delivered once")
        let spool =
            (try? FileManager.default.contentsOfDirectory(atPath: state + "/transcripts.sqlite-outbox-files")) ?? []
        #expect(spool.isEmpty, "the copy goes with the delivered message: \(spool)")
    }

    @Test func aFileOverTheLimitIsRefusedLocallyNamingTheLimit() async throws {
        let image = try Self.file("big.png", Array(Self.png.prefix(600)))
        let limits = TestAttachmentLimits(maxBytes: 2000, maxImageBytes: 500)
        try await CLITests.withGateway(TestGatewayConfiguration(attachmentLimits: limits)) { gateway, common in
            let result = try await CLIProcess.run(["send"] + common + ["--file", image, "look"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("big.png is 600 bytes; this gateway accepts images up to 500 bytes."))
            #expect(await gateway.requestCount(method: "chat.send") == 0)
            #expect(await gateway.sentUserMessages(sessionKey: "main").isEmpty)
        }
    }

    @Test func protocol3GatewaysAreNotSentWhatTheyWouldDrop() async throws {
        let document = try Self.file("notes.pdf", Self.pdf)
        try await CLITests.withGateway(TestGatewayConfiguration(protocolNumber: 3)) { gateway, common in
            let result = try await CLIProcess.run(["send"] + common + ["--file", document])
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("notes.pdf is application/pdf; this gateway (protocol 3) accepts images only."))
            #expect(await gateway.requestCount(method: "chat.send") == 0)
        }
    }

    @Test func aFileFromStdinTakesItsTypeFromMime() async throws {
        try await CLITests.withGateway { gateway, common in
            let result = try await CLIProcess.run(
                ["send"] + common + ["--file", "-", "--mime", "text/csv", "sum this"], stdin: "a,b\n1,2\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let received = await gateway.receivedAttachments()
            #expect(received.map(\.bytes) == [Array("a,b\n1,2\n".utf8)])
            #expect(received.first?.declaredMimeType == "text/csv")
        }
    }
}
