import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Characters that hide text or reorder it (zero-width, bidirectional marks and overrides, tags, C1
/// controls) sent by a gateway, an agent, a beacon or a setup code never reach the terminal raw: each
/// command shows them as `<U+XXXX>`, and `--json` as `\uXXXX`.
@Suite("openclaw-chat: invisible and bidirectional characters are shown escaped")
struct InvisibleCharactersCLITests {
    static let hostileReply =
        "pay\u{200B}pal \u{202E}txt.exe \u{200F}x\u{FEFF}y\u{AD}z\u{E0041}\u{9B}m \u{2066}i\u{2069}"
    static let escapedReply =
        "pay<U+200B>pal <U+202E>txt.exe <U+200F>x<U+FEFF>y<U+00AD>z<U+E0041><U+009B>m <U+2066>i<U+2069>"
    static let hostileFailure = "boom\u{200B}\u{202E}gone"
    static let escapedFailure = "boom<U+200B><U+202E>gone"

    static var hostileAgent: TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration()
        configuration.agent = .custom { message in
            if message.contains("fail") {
                return AgentScript(steps: [.fail(message: hostileFailure, kind: "unknown")])
            }
            return AgentScript(steps: [.say(hostileReply)], chunkSize: 3)
        }
        return configuration
    }

    /// Every character that must not reach a terminal raw, listed independently of the escaper.
    static func expectNothingHidden(
        _ output: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let raw = output.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x1B, 0x07, 0x7F...0x9F, 0xAD, 0x061C, 0x180E, 0x200B...0x200F, 0x202A...0x202E: true
            case 0x2060...0x2064, 0x2066...0x2069, 0xFEFF, 0xE0000...0xE007F: true
            default: false
            }
        }
        #expect(
            raw.isEmpty, "raw \(raw.map { String($0.value, radix: 16) }) in:\n\(output.debugDescription)",
            sourceLocation: sourceLocation)
    }

    @Test func sendHistorySessionsAndErrorsShowThemEscaped() async throws {
        try await CLITests.withGateway(Self.hostileAgent) { _, common in
            let session = "team\u{200B}\u{202E}"
            let sent = try await CLIProcess.run(["send", "--session", session] + common + ["hi"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(sent.stdout.contains(Self.escapedReply), "stdout: \(sent.stdout.debugDescription)")
            Self.expectNothingHidden(sent.stdout + sent.stderr)

            let history = try await CLIProcess.run(["history", "--session", session] + common)
            #expect(history.status == 0, "stderr: \(history.stderr)")
            #expect(history.stdout.contains(Self.escapedReply), "stdout: \(history.stdout.debugDescription)")
            Self.expectNothingHidden(history.stdout + history.stderr)

            let sessions = try await CLIProcess.run(["sessions"] + common)
            #expect(sessions.status == 0, "stderr: \(sessions.stderr)")
            #expect(sessions.stdout.contains("team<U+200B><U+202E>"), "\(sessions.stdout.debugDescription)")
            Self.expectNothingHidden(sessions.stdout + sessions.stderr)

            let failed = try await CLIProcess.run(["send"] + common + ["please fail"])
            #expect(failed.status == 8, "stderr: \(failed.stderr)")
            #expect(failed.stderr.contains(Self.escapedFailure), "\(failed.stderr.debugDescription)")
            Self.expectNothingHidden(failed.stdout + failed.stderr)
        }
    }

    /// `--json` keeps the exact text for scripts, but as `\uXXXX` escapes: a script that prints a
    /// string shows the escape, and a JSON reader gets the same text back.
    @Test func jsonWritesThemAsUnicodeEscapes() async throws {
        try await CLITests.withGateway(Self.hostileAgent) { _, common in
            let sent = try await CLIProcess.run(["send", "--json"] + common + ["hi"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            Self.expectNothingHidden(sent.stdout)
            #expect(sent.stdout.contains(#"\u200b"#), "\(sent.stdout.debugDescription)")

            let history = try await CLIProcess.run(["history", "--json"] + common)
            #expect(history.status == 0, "stderr: \(history.stderr)")
            Self.expectNothingHidden(history.stdout)
            for escape in [#"pay\u200bpal"#, #"\u202etxt"#, #"\u200f"#, #"\ufeff"#, #"\u00ad"#, #"\udb40\udc41"#] {
                #expect(history.stdout.contains(escape), "\(escape) missing in \(history.stdout)")
            }
            #expect(history.stdout.contains(#"\u009bm"#))
            let texts = try history.stdout.split(separator: "\n").map { try JSONParser().parse(String($0))["text"] }
            #expect(texts.contains(.string(Self.hostileReply)))
        }
    }

    /// A beacon's name and host are anyone's on the network: shown escaped, and the suggested login
    /// line quoted for the shell, so pasting it runs nothing else.
    @Test func discoverEscapesTheBeaconAndQuotesTheLoginLine() async throws {
        let beacon = """
            cat <<'EOF'
            =;eth0;IPv4;evil;_openclaw-gw._tcp;local;evil\\032$(touch\\032pwned)\\039.local;192.168.1.66;18789;"displayName=Mac\u{200B}\u{202E}mini"
            EOF
            """
        let directory = try DiscoverCLITests.fakeBrowser(beacon)
        let result = try await CLIProcess.run(["discover"], environment: ["PATH": directory + ":/usr/bin:/bin"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Mac<U+200B><U+202E>mini"), "\(result.stdout.debugDescription)")
        #expect(
            result.stdout.contains(#"openclaw-chat login --url 'ws://evil $(touch pwned)'\''.local:18789'"#),
            "\(result.stdout)")
        Self.expectNothingHidden(result.stdout + result.stderr)
    }

    /// The addresses in a setup code are the code's author's: each one tried and failed is named escaped.
    @Test func setupCodeAddressesAreShownEscaped() async throws {
        let host = "evil\u{200B}\u{202E}\u{1B}]0;x\u{07}.invalid"
        let code = SetupCode(
            urls: [GatewayURL(isSecure: false, host: host, port: 1), GatewayURL(isSecure: false, host: host, port: 2)],
            bootstrapToken: "b", expiresAt: Date(timeIntervalSinceNow: 600))
        let state = CLIProcess.temporaryStateDirectory()
        let login = try await CLIProcess.run(["login", "--code", code.encoded, "--state-dir", state])
        #expect(login.status != 0)
        #expect(
            login.stderr.contains("ws://evil<U+200B><U+202E>^[]0;x^G.invalid:1"), "\(login.stderr.debugDescription)")
        Self.expectNothingHidden(login.stdout + login.stderr)
    }

    /// `doctor` names the address it checks: a token in its query never shown, its characters escaped.
    @Test func doctorShowsTheAddressRedactedAndEscaped() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let parsed = try await CLIProcess.run(
            ["doctor", "--url", "ws://127.0.0.1:1/gw\u{200B}?token=s3cret", "--state-dir", state])
        #expect(parsed.stdout.contains("Checking ws://127.0.0.1:1/gw<U+200B>?<redacted>"), "\(parsed.stdout)")
        #expect(!(parsed.stdout + parsed.stderr).contains("s3cret"))
        Self.expectNothingHidden(parsed.stdout + parsed.stderr)

        let unparsed = try await CLIProcess.run(
            ["doctor", "--url", "ftp://h\u{202E}x/?token=s3cret", "--state-dir", state])
        #expect(unparsed.stdout.contains("Checking ftp://h<U+202E>x/?<redacted>"), "\(unparsed.stdout)")
        #expect(!(unparsed.stdout + unparsed.stderr).contains("s3cret"))
        Self.expectNothingHidden(unparsed.stdout + unparsed.stderr)
    }

    /// `--trace` prints every frame and `--verbose` logs what the gateway sent that was ignored: both
    /// quote the gateway, both escaped.
    @Test func traceAndVerboseLogsShowThemEscaped() async throws {
        let strange = #"{"type":"odd\#u{9B}\#u{200B}\#u{202E}"}"#
        let gateway = try await HostileGateway.start(
            HostileScript(onChatSend: [.text(strange), .cumulativeDeltas(count: 1, chunk: "done", final: true)]))
        defer { Task { await gateway.stop() } }
        let result = try await CLIProcess.run(
            [
                "send", "--verbose", "--trace", "--url", gateway.url, "--token", "t", "--state-dir",
                CLIProcess.temporaryStateDirectory(), "hi",
            ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("type=odd<U+009B><U+200B><U+202E>"), "\(result.stderr.debugDescription)")
        Self.expectNothingHidden(result.stdout + result.stderr)
    }
}
