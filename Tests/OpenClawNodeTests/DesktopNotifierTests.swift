import Foundation
import OpenClawNode
import OpenClawProtocol
import Testing

/// What an agent's `system.notify` hands to `notify-send`: its title and body may hold anything, and the
/// desktop shows them as they are, so hidden and reordering characters go out escaped.
@Suite("Node: notifications reach notify-send escaped")
struct DesktopNotifierTests {
    /// Records the one process it is asked to run instead of running it.
    final class RecordingRunner: ProcessRunner, Sendable {
        private let requests = LockedBox<[ProcessRequest]>([])

        var recorded: [ProcessRequest] { requests.value }

        func run(_ request: ProcessRequest) async throws(NodeInvokeError) -> ProcessOutcome {
            requests.mutate { $0.append(request) }
            return ProcessOutcome(exitCode: 0)
        }
    }

    /// A directory with an executable `notify-send` in it, for the notifier to find on its PATH.
    static func pathWithNotifySend() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/notify-send"
        try "#!/bin/sh\nexit 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return directory
    }

    @Test func hostileTitleAndBodyAreEscaped() async throws {
        let runner = RecordingRunner()
        let notifier = DesktopNotifier(runner: runner, searchPath: try Self.pathWithNotifySend(), print: { _ in })
        let params = try SystemNotifyCommand.Params(
            json: [
                "title": "Build\u{200B} done\u{202E}exe.txt\n\u{1B}]0;x\u{07}",
                "body": "pay\u{200B}pal\u{9B}31m\nline two \u{2066}\u{E0041}\u{FEFF}\u{AD}",
            ])
        try await notifier.show(params.notification)
        let request = try #require(runner.recorded.first)
        let arguments = request.arguments
        #expect(arguments.contains("Build<U+200B> done<U+202E>exe.txt ^[]0;x^G"), "\(arguments)")
        #expect(arguments.contains("pay<U+200B>pal<U+009B>31m\nline two <U+2066><U+E0041><U+FEFF><U+00AD>"))
        let raw = arguments.joined().unicodeScalars.filter {
            (0x80...0x9F).contains($0.value) || [0x1B, 0x07, 0x200B, 0x202E, 0x2066, 0xFEFF, 0xAD].contains($0.value)
                || (0xE0000...0xE007F).contains($0.value)
        }
        #expect(raw.isEmpty, "raw in \(arguments)")
    }
}
