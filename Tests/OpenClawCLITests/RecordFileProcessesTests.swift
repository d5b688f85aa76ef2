import Foundation
import OpenClawGateway
import OpenClawTestSupport
import Testing

/// Record files (device tokens, certificate pins) shared by several `openclaw-chat` processes at once: a
/// chat, a `send` from a script and a `trust --forget` may change the same file in the same moment, and
/// none may undo another's change by writing back what it read before.
@Suite("Record files changed by several processes at once")
struct RecordFileProcessesTests {
    @Test func concurrentForgetsInSeparateProcessesLoseNone() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let pins = FileTLSPinStore(path: state + "/credentials/tls-pins.json")
        let hosts = (0..<24).map { "host-\($0).example" }
        let fingerprint = TLSFingerprint(certificateDER: Array("a certificate".utf8))
        for host in hosts {
            try pins.save(TLSPin(fingerprint: fingerprint), for: try GatewayURL(parsing: "wss://\(host)").tlsPinKey)
        }
        #expect(try pins.all().count == hosts.count)

        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for host in hosts {
                group.addTask {
                    try await CLIProcess.run(
                        ["trust", "--forget", "--url", "wss://\(host)", "--state-dir", state]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 0 })
        #expect(try pins.all().isEmpty, "pins written back by a process that read before another's change")
        #expect(SecureFile.mode(of: state + "/credentials/tls-pins.json.lock") == 0o600)
    }
}
