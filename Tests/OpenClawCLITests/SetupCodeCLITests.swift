import Foundation
import OpenClawGateway
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `openclaw-chat login --code` against a test gateway that issues bootstrap tokens.
@Suite("openclaw-chat login --code")
struct SetupCodeCLITests {
    @Test func aCodeTriesItsAddressesInOrderPairsAndLaterCommandsNeedNoSecret() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(pairing: .requireApproval))
        defer { Task { await gateway.stop() } }
        let state = CLIProcess.temporaryStateDirectory()
        // The first address has nothing listening (port 1): the next one is tried.
        let code = try await gateway.setupCode(host: "127.0.0.1", extraURLs: ["ws://127.0.0.1:1"])
        let login = try await CLIProcess.run(["login", "--code", "oc-pair://" + code.encoded, "--state-dir", state])
        #expect(login.status == 0, "stdout: \(login.stdout) stderr: \(login.stderr)")
        #expect(login.stdout.contains("Paired with ws://127.0.0.1:\(gateway.port)"))
        #expect(login.stderr.contains("Trying the next address"))
        #expect(!login.stdout.contains(code.bootstrapToken) && !login.stderr.contains(code.bootstrapToken))
        let saved = try String(contentsOfFile: state + "/credentials/gateway.json", encoding: .utf8)
        #expect(!saved.contains(code.bootstrapToken))

        let status = try await CLIProcess.run(["status", "--state-dir", state])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        #expect(await gateway.pendingPairingRequests().isEmpty)

        // Used once: a second login with it is refused clearly.
        let again = try await CLIProcess.run(
            ["login", "--code", code.encoded, "--state-dir", CLIProcess.temporaryStateDirectory()])
        #expect(again.status == 4)
        #expect(again.stderr.contains("already used or has expired"), "\(again.stderr)")
    }

    @Test func aSelfSignedGatewaysCodeCarriesItsFingerprintSoNothingIsAsked() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(tls: TestGatewayTLS()))
        defer { Task { await gateway.stop() } }
        let state = CLIProcess.temporaryStateDirectory()
        let code = try await gateway.setupCode()
        let login = try await CLIProcess.run(["login", "--code", code.encoded, "--state-dir", state])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let pin = try FileTLSPinStore(path: state + "/credentials/tls-pins.json").pin(
            for: "wss://localhost:\(gateway.port)")
        #expect(pin?.fingerprint == gateway.tlsFingerprint)
    }

    @Test func expiredAndMalformedCodesAreUsageErrorsWithWhatToDo() async throws {
        let expired = SetupCode(
            urls: [try GatewayURL(parsing: "ws://127.0.0.1:1")], bootstrapToken: "b",
            expiresAt: Date(timeIntervalSinceNow: -60))
        let state = CLIProcess.temporaryStateDirectory()
        let old = try await CLIProcess.run(["login", "--code", expired.encoded, "--state-dir", state])
        #expect(old.status == 2)
        #expect(old.stderr.contains("the setup code expired at"))
        #expect(old.stderr.contains("openclaw qr"))
        let garbage = try await CLIProcess.run(["login", "--code", "oc-pair://%%%", "--state-dir", state])
        #expect(garbage.status == 2)
        #expect(garbage.stderr.contains("not an OpenClaw setup code"))
    }
}
