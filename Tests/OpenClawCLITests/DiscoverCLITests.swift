import Foundation
import Testing

@testable import OpenClawCLI

/// `openclaw-chat discover` with a stand-in `avahi-browse` on the PATH that prints recorded output.
@Suite("openclaw-chat discover")
struct DiscoverCLITests {
    /// A directory holding an `avahi-browse` that runs `script`.
    static func fakeBrowser(_ script: String) throws -> String {
        let directory = CLIProcess.temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/avahi-browse"
        try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return directory
    }

    static let beacon = #"""
        cat <<'EOF'
        =;eth0;IPv4;Home\032Gateway;_openclaw-gw._tcp;local;mini.local;192.168.1.20;18789;"role=gateway" "displayName=Mac mini" "gatewayTls=1" "gatewayTlsSha256=sha256:\#(String(repeating: "cd", count: 32))"
        =;eth0;IPv4;evil;_openclaw-gw._tcp;local;evil.local;192.168.1.66;18789;"displayName=\027]0;owned\007\027[2J"
        EOF
        """#

    @Test func itListsTheGatewaysWithHowToConnect() async throws {
        let directory = try Self.fakeBrowser(Self.beacon)
        let result = try await CLIProcess.run(["discover"], environment: ["PATH": directory + ":/usr/bin:/bin"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Mac mini  wss://mini.local:18789  (192.168.1.20)"), "\(result.stdout)")
        #expect(result.stdout.contains("openclaw-chat login --url wss://mini.local:18789"))
        #expect(result.stdout.contains("sha256:" + String(repeating: "cd", count: 32)))
        #expect(result.stdout.contains("never trusted from the beacon"))
        // A hostile name cannot retitle or clear the terminal.
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.contains("^[]0;owned^G^[[2J"), "\(result.stdout)")
    }

    @Test func jsonGivesOneObjectPerGateway() async throws {
        let directory = try Self.fakeBrowser(Self.beacon)
        let result = try await CLIProcess.run(
            ["discover", "--json"], environment: ["PATH": directory + ":/usr/bin:/bin"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(
            JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["url"] as? String == "wss://mini.local:18789")
        #expect(first["tls"] as? Bool == true)
        #expect(first["addresses"] as? [String] == ["192.168.1.20"])
    }

    @Test func withoutAvahiItSaysWhatToInstall() async throws {
        let empty = CLIProcess.temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try await CLIProcess.run(["discover"], environment: ["PATH": empty])
        #expect(result.status == ExitStatus.local)
        #expect(result.stderr.contains("avahi-browse is not installed"))
        #expect(result.stderr.contains("apt install avahi-utils"))
    }

    @Test func aBrowserThatNeverEndsIsStoppedAtTheTimeout() async throws {
        let directory = try Self.fakeBrowser(
            #"echo '=;eth0;IPv4;slow;_openclaw-gw._tcp;local;slow.local;10.0.0.2;18789;"role=gateway"'; exec sleep 60"#)
        let result = try await CLIProcess.run(
            ["discover", "--timeout", "1"], environment: ["PATH": directory + ":/usr/bin:/bin"],
            timeout: .seconds(20))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("ws://slow.local:18789"))
    }

    @Test func aFailingBrowserIsReportedWithItsComplaint() async throws {
        let directory = try Self.fakeBrowser("echo 'Failed to create client object: Daemon not running' >&2; exit 1")
        let result = try await CLIProcess.run(["discover"], environment: ["PATH": directory + ":/usr/bin:/bin"])
        #expect(result.status == ExitStatus.local)
        #expect(result.stderr.contains("Daemon not running"))
        #expect(result.stderr.contains("avahi-daemon"))
    }
}
