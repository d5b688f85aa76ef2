import Foundation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway

/// Scenario 7: peak memory while sending a 20 MB file (issue 17: under 3× the file's size).
///
/// The sending client runs in a child process (this binary again, `--attachment-send-child`), so its
/// peak resident size (`VmHWM`) is its own: the gateway, which must hold the whole 27 MB frame and the
/// decoded file, stays in this process. The figure is the child's peak minus its resident size just
/// before the send (after connecting), so libraries and runtime pages are not counted.
enum AttachmentBenchmark {
    static let fileBytes = 20_000_000
    static let childFlag = "--attachment-send-child"

    @MainActor
    static func run(_ report: Report, settings: Settings) async throws {
        let folder = try TemporaryDirectory(prefix: "openclaw-attachment")
        defer { folder.remove() }
        let path = folder.path + "/report.pdf"
        try writeFile(at: path)
        var configuration = TestGatewayConfiguration()
        configuration.port = 0
        // Base64 makes 20 MB a 26.7 MB frame: over the default 25 MiB policy.maxPayload.
        configuration.maxPayload = 32 * 1_048_576
        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [childFlag, gateway.url, path]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self)
        let fields = Dictionary(
            uniqueKeysWithValues: line.split(whereSeparator: \.isWhitespace).compactMap { field -> (String, Int)? in
                let parts = field.split(separator: "=")
                guard parts.count == 2, let value = Int(parts[1]) else { return nil }
                return (String(parts[0]), value)
            })
        guard child.terminationStatus == 0, let baseline = fields["baseline"], let peak = fields["peak"],
            let milliseconds = fields["ms"]
        else {
            throw BenchmarkError.setup("the sending child failed (\(child.terminationStatus)): \(line)")
        }
        let received = await gateway.receivedAttachments()
        guard received.count == 1, received.first?.bytes.count == fileBytes else {
            throw BenchmarkError.wrongResult("the gateway received \(received.map(\.bytes.count))")
        }
        let delta = peak - baseline
        report.add(
            "7", "peak memory sending a 20 MB file", Format.megabytes(delta), "MB",
            goal: .atMost(3 * Format.megabytes(fileBytes), "MB"),
            note: "VmHWM − VmRSS before the send, client in its own process; "
                + "\(Format.grouped(milliseconds)) ms to the ack; gateway checked the bytes")
    }

    /// The child: connects, notes its resident size, sends the file, prints its peak.
    static func child(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2 else { return 2 }
        do {
            let connection = GatewayConnection(
                configuration: GatewayConnectionConfiguration(
                    url: try GatewayURL(parsing: arguments[0]), credential: .token("test-token"),
                    client: Harness.client, reconnect: nil),
                identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
                tokenStore: InMemoryDeviceTokenStore(), logger: Harness.quietLogger)
            _ = try await connection.connect()
            let attachment = try Attachment.file(at: URL(fileURLWithPath: arguments[1]))
            ProcessMemory.releaseFreedMemory()
            guard let baseline = ProcessMemory.residentBytes() else { return 3 }
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await ChatClient(connection: connection).send(
                sessionKey: "main", message: "what is in this report?", idempotencyKey: UUID().uuidString,
                attachments: [attachment])
            let elapsed = clock.now - start
            guard let peak = ProcessMemory.peakResidentBytes() else { return 3 }
            await connection.disconnect()
            Output.line("baseline=\(baseline) peak=\(peak) ms=\(Int(elapsed.seconds * 1000))")
            return 0
        } catch {
            Output.line("error=\(error)")
            return 1
        }
    }

    /// A PDF header and 20 MB of bytes that do not compress, written in 1 MB pieces.
    private static func writeFile(at path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var written = 0
        while written < fileBytes {
            var chunk = [UInt8](repeating: 0, count: min(1_048_576, fileBytes - written))
            for index in chunk.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                chunk[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
            if written == 0 { chunk.replaceSubrange(0..<9, with: Array("%PDF-1.7\n".utf8)) }
            try handle.write(contentsOf: Data(chunk))
            written += chunk.count
        }
    }
}
