import Foundation
import OpenClawTestGateway
import Testing

/// `/save N PATH` in the real binary with piped input: the image row names the command, the file is
/// written with the gateway's bytes, an existing name (a symlink included) is never overwritten, and a
/// gateway without `artifacts.download` is reported, not crashed on.
@Suite("openclaw-chat: /save a generated image")
struct SaveImageCLITests {
    private static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("save-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func saveWritesTheImageAndRefusesToOverwrite() async throws {
        let directory = try Self.temporaryDirectory()
        let target = directory + "/cat.png"
        let decoy = directory + "/decoy.txt"
        let link = directory + "/link.png"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: decoy))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: decoy)
        try await CLITests.withGateway(TestGatewayConfiguration(protocolNumber: 4)) { gateway, common in
            let input = "draw a cat\n/history 2\n/save 2 \(target)\n/save 2 \(target)\n/save 2 \(link)\n/quit\n"
            let result = try await CLIProcess.run(["chat"] + common, stdin: input)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let out = result.stdout
            #expect(out.contains("🖼 image 2 (artifact) — /save 2 PATH"), "\(out)")
            #expect(out.contains("saved image 2"), "\(out)")
            #expect(out.contains("\(target) already exists: not overwritten"), "\(out)")
            #expect(out.contains("\(link) already exists: not overwritten"), "\(out)")
            let saved = try Data(contentsOf: URL(fileURLWithPath: target))
            #expect(saved.count == 4096)
            #expect(Array(saved.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            #expect(try String(contentsOfFile: decoy, encoding: .utf8) == "keep me", "the symlink was followed")
            #expect(await gateway.requestCount(method: "artifacts.download") == 1)
        }
    }

    @Test func aGatewayWithoutArtifactsIsReported() async throws {
        let directory = try Self.temporaryDirectory()
        let target = directory + "/cat.png"
        try await CLITests.withGateway(TestGatewayConfiguration(protocolNumber: 4, quirks: .noArtifacts)) {
            gateway, common in
            let input = "draw a cat\n/history 2\n/save 2 \(target)\n/quit\n"
            let result = try await CLIProcess.run(["chat"] + common, stdin: input)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("this gateway cannot send generated images"), "\(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: target))
            #expect(await gateway.requestCount(method: "artifacts.download") == 0)
        }
    }
}
