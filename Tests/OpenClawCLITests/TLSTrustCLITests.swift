import Foundation
import OpenClawGateway
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The terminal side of certificate pinning, as a person or a script meets it: the refusal that shows
/// the fingerprint, the prompt on a terminal, the script flags, `trust` and `doctor`.
@Suite("openclaw-chat with a self-signed wss:// gateway")
struct TLSTrustCLITests {
    static func withTLSGateway(
        _ tls: TestGatewayTLS = TestGatewayTLS(), _ body: (TestGateway, [String], String) async throws -> Void
    ) async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(tls: tls))
        let state = CLIProcess.temporaryStateDirectory()
        let common = ["--url", "wss://localhost:\(gateway.port)", "--token", "test-token", "--state-dir", state]
        do {
            try await body(gateway, common, state)
            await gateway.stop()
        } catch {
            await gateway.stop()
            throw error
        }
    }

    @Test func aScriptIsRefusedWithTheFingerprintThenPinsItWithTheFlag() async throws {
        try await Self.withTLSGateway { gateway, common, state in
            let fingerprint = try #require(gateway.tlsFingerprint)
            let refused = try await CLIProcess.run(["status"] + common)
            #expect(refused.status == 3, "stderr: \(refused.stderr)")
            #expect(refused.stderr.contains(fingerprint.description))
            #expect(refused.stderr.contains("--tls-fingerprint"))

            let pinned = try await CLIProcess.run(["status"] + common + ["--tls-fingerprint", fingerprint.description])
            #expect(pinned.status == 0, "stderr: \(pinned.stderr)")
            let pinFile = state + "/credentials/tls-pins.json"
            #expect(SecureFile.mode(of: pinFile) == 0o600)

            // From now on no flag is needed, and `trust` and `doctor` show the pin.
            let later = try await CLIProcess.run(["status"] + common)
            #expect(later.status == 0, "stderr: \(later.stderr)")
            let trust = try await CLIProcess.run(["trust"] + common)
            #expect(trust.stdout.contains("wss://localhost:\(gateway.port) \(fingerprint)"), "\(trust.stdout)")
            let doctor = try await CLIProcess.run(["doctor"] + common)
            #expect(doctor.status == 0, "stdout: \(doctor.stdout) stderr: \(doctor.stderr)")
            #expect(doctor.stdout.contains("certificate \(fingerprint) matches the pin"), "\(doctor.stdout)")

            // Forgetting the pin makes the next connection a first use again.
            let forget = try await CLIProcess.run(["trust", "--forget"] + common)
            #expect(forget.status == 0)
            let again = try await CLIProcess.run(["status"] + common)
            #expect(again.status == 3)
        }
    }

    @Test func aChangedCertificateFailsHardAndDoctorSaysWhatToDo() async throws {
        try await Self.withTLSGateway { gateway, common, state in
            let observed = try #require(gateway.tlsFingerprint)
            let pinned = TLSFingerprint(certificateDER: Array("an older certificate".utf8))
            try FileTLSPinStore(path: state + "/credentials/tls-pins.json")
                .save(TLSPin(fingerprint: pinned), for: "wss://localhost:\(gateway.port)")
            let result = try await CLIProcess.run(["status", "--trust-on-first-use"] + common)
            #expect(result.status == 3)
            #expect(result.stderr.contains(pinned.description) && result.stderr.contains(observed.description))
            #expect(result.stderr.contains("trust --forget"))
            let doctor = try await CLIProcess.run(["doctor"] + common)
            #expect(doctor.status != 0)
            #expect(doctor.stdout.contains("✗ TLS"), "\(doctor.stdout)")
            #expect(doctor.stdout.contains(observed.description))
        }
    }

    @Test func onATerminalTheFingerprintIsShownAndAYesPinsIt() async throws {
        try await Self.withTLSGateway { gateway, common, state in
            let fingerprint = try #require(gateway.tlsFingerprint)
            let process = try InteractiveProcess(["login"] + common, mode: .terminal)
            defer { process.killIfRunning() }
            try await process.waitFor(fingerprint.description)
            try await process.waitFor("Trust and pin it? [y/N]")
            process.type("y", mode: .terminal)
            let status = try await process.waitForExit()
            #expect(status == 0, "output:\n\(process.output)")
            let pin = try FileTLSPinStore(path: state + "/credentials/tls-pins.json")
                .pin(for: "wss://localhost:\(gateway.port)")
            #expect(pin?.fingerprint == fingerprint)
        }
    }

    @Test func onATerminalAnythingButYesRefuses() async throws {
        try await Self.withTLSGateway { _, common, state in
            let process = try InteractiveProcess(["login"] + common, mode: .terminal)
            defer { process.killIfRunning() }
            try await process.waitFor("Trust and pin it? [y/N]")
            process.type("", mode: .terminal)
            let status = try await process.waitForExit()
            #expect(status == 3, "output:\n\(process.output)")
            #expect(try FileTLSPinStore(path: state + "/credentials/tls-pins.json").all().isEmpty)
        }
    }

    @Test func anExpiredCertificateIsExplainedNotOfferedForTrust() async throws {
        try await Self.withTLSGateway(.expired) { _, common, _ in
            let result = try await CLIProcess.run(["status", "--trust-on-first-use"] + common)
            #expect(result.status == 3)
            #expect(result.stderr.contains("expired on"), "\(result.stderr)")
            #expect(result.stderr.contains("Renew"))
        }
    }

    /// A gateway whose certificate is pinned is never spoken to in clear text: `ws://` to the same
    /// host is refused before the token leaves, with the way out.
    @Test func aPinnedHostIsNeverReachedInClearText() async throws {
        let gateway = try await TestGateway.start()
        defer { Task { await gateway.stop() } }
        let state = CLIProcess.temporaryStateDirectory()
        try FileTLSPinStore(path: state + "/credentials/tls-pins.json")
            .save(TLSPin(fingerprint: TLSFingerprint(certificateDER: Array("pinned".utf8))), for: "wss://127.0.0.1:443")
        let common = ["--url", "ws://127.0.0.1:\(gateway.port)", "--token", "test-token", "--state-dir", state]
        let result = try await CLIProcess.run(["status"] + common)
        #expect(result.status == 3, "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stderr.contains("without TLS"), "\(result.stderr)")
        #expect(result.stderr.contains("trust --url wss://127.0.0.1:443 --forget"), "\(result.stderr)")
        #expect(await gateway.receivedConnectParams().isEmpty)
    }
}
