import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Several saved gateways (`login --name`, `--gateway`, `gateways`) and the move from the single saved
/// login of earlier versions.
@Suite("openclaw-chat with several gateways")
struct GatewayProfilesCLITests {
    @Test func twoNamedGatewaysAreUsedByNameListedWithStatusAndRemovedOneByOne() async throws {
        let home = try await TestGateway.start(TestGatewayConfiguration(auth: .token("home-token")))
        let work = try await TestGateway.start(TestGatewayConfiguration(auth: .token("work-token")))
        defer {
            Task {
                await home.stop()
                await work.stop()
            }
        }
        let state = ["--state-dir", CLIProcess.temporaryStateDirectory()]
        let first = try await CLIProcess.run(
            ["login", "--name", "home", "--url", home.url, "--token", "home-token"] + state)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let second = try await CLIProcess.run(
            ["login", "--name", "work", "--url", work.url, "--token", "work-token"] + state)
        #expect(second.status == 0, "stderr: \(second.stderr)")

        // The last login is current; --gateway picks another for one command.
        #expect(try await CLIProcess.run(["send"] + state + ["to work"]).status == 0)
        #expect(try await CLIProcess.run(["send", "--gateway", "home"] + state + ["to home"]).status == 0)
        #expect(await work.sentUserMessages(sessionKey: "main") == ["to work"])
        #expect(await home.sentUserMessages(sessionKey: "main") == ["to home"])

        let listed = try await CLIProcess.run(["gateways"] + state)
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.contains { $0.hasPrefix("  home") && $0.contains(home.url) && $0.contains("ok (protocol 4)") })
        #expect(lines.contains { $0.hasPrefix("* work") && $0.contains(work.url) && $0.contains("ok (protocol 4)") })
        #expect(!listed.stdout.contains("home-token") && !listed.stdout.contains("work-token"))

        // Switching, then a gateway that is down shows as such without failing the listing.
        #expect(try await CLIProcess.run(["gateways", "--use", "home", "--no-check"] + state).status == 0)
        await work.stop()
        let afterStop = try await CLIProcess.run(["gateways"] + state)
        #expect(afterStop.stdout.contains("* home"), "\(afterStop.stdout)")
        #expect(afterStop.stdout.split(separator: "\n").contains { $0.contains("work") && $0.contains("unreachable") })

        // Logging out of one keeps the other, with its device token.
        let logout = try await CLIProcess.run(["logout", "--gateway", "work"] + state)
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        let remaining = try await CLIProcess.run(["gateways", "--no-check"] + state)
        #expect(remaining.stdout.split(separator: "\n").map(String.init) == ["* home  \(home.url)"])
        let tokens = try String(contentsOfFile: state[1] + "/credentials/device-tokens.json", encoding: .utf8)
        // Keys are `address|device|role`: the separator keeps port 4000 from matching port 40001.
        #expect(tokens.contains(home.url + "|") && !tokens.contains(work.url + "|"))
        #expect(try await CLIProcess.run(["status"] + state).status == 0)

        // A token in the environment is for the gateway the environment names, never for one picked by
        // name: 'home' still signs in with its own saved token.
        let withEnvironment = try await CLIProcess.run(
            ["status", "--gateway", "home"] + state, environment: ["OPENCLAW_GATEWAY_TOKEN": "work-token"])
        #expect(withEnvironment.status == 0, "the environment's token went to 'home': \(withEnvironment.stderr)")
        #expect(!withEnvironment.stderr.contains("refused"), "\(withEnvironment.stderr)")

        let unknown = try await CLIProcess.run(["status", "--gateway", "nope"] + state)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("No saved gateway named 'nope'") && unknown.stderr.contains("home"))
    }

    /// Two names for one address: the device tokens are the address's, so logging out of one keeps
    /// them for the other, which may have no working secret of its own.
    @Test func loggingOutOfOneNameKeepsTheDeviceTokensAnotherNameForTheAddressUses() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(auth: .token("right")))
        defer { Task { await gateway.stop() } }
        let state = ["--state-dir", CLIProcess.temporaryStateDirectory()]
        let good = try await CLIProcess.run(["login", "--name", "b", "--url", gateway.url, "--token", "right"] + state)
        #expect(good.status == 0, "stderr: \(good.stderr)")
        let stale = try await CLIProcess.run(
            ["login", "--name", "a", "--url", gateway.url, "--token", "rotated-away", "--no-verify"] + state)
        #expect(stale.status == 0, "stderr: \(stale.stderr)")
        // 'a' signs in with the device token 'b' earned, and says its own token was refused.
        let before = try await CLIProcess.run(["status", "--gateway", "a"] + state)
        #expect(before.status == 0, "stderr: \(before.stderr)")
        let listed = try await CLIProcess.run(["gateways"] + state)
        #expect(listed.stdout.contains("saved token was refused"), "\(listed.stdout)")

        let logout = try await CLIProcess.run(["logout", "--gateway", "b"] + state)
        #expect(logout.status == 0)
        #expect(logout.stdout.contains("Its device tokens stay: 'a' has the same address"), "\(logout.stdout)")
        #expect(!logout.stdout.contains("current gateway is now"), "'a' was current all along: \(logout.stdout)")
        let after = try await CLIProcess.run(["status", "--gateway", "a"] + state)
        #expect(after.status == 0, "'a' lost its device token: \(after.stderr)")
    }

    @Test func theSingleLoginOfEarlierVersionsBecomesTheDefaultGatewayWithNothingLost() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(auth: .token("old-token")))
        defer { Task { await gateway.stop() } }
        let directory = CLIProcess.temporaryStateDirectory()
        let state = ["--state-dir", directory]
        // State as an earlier version leaves it: a transcript and a device token from a chat, and the
        // single saved login (`{url, version: 1, token}`).
        let chat = try await CLIProcess.run(
            ["chat", "--url", gateway.url, "--token", "old-token"] + state, stdin: "remember the lighthouse\n/quit\n")
        #expect(chat.status == 0, "stderr: \(chat.stderr)")
        // A second launch reads the history back into the store (as the offline-queue test does).
        let reread = try await CLIProcess.run(
            ["chat", "--url", gateway.url, "--token", "old-token"] + state, stdin: "/quit\n")
        #expect(reread.status == 0, "stderr: \(reread.stderr)")
        let before = try await CLIProcess.run(["search", "--url", gateway.url, "lighthouse"] + state)
        #expect(before.stdout.contains("lighthouse"), "\(before.stdout) \(before.stderr)")
        let loginFile = directory + "/credentials/gateway.json"
        let legacy = JSONSerializer.bytes(["url": .string(gateway.url), "version": 1, "token": "old-token"])
        try Data(legacy).write(to: URL(fileURLWithPath: loginFile))
        let tokensBefore = try Data(contentsOf: URL(fileURLWithPath: directory + "/credentials/device-tokens.json"))

        let status = try await CLIProcess.run(["status"] + state)
        #expect(status.status == 0, "stderr: \(status.stderr)")
        let migrated = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: loginFile))))
        #expect(migrated["version"] == 2)
        #expect(migrated["current"] == "default")
        #expect(migrated["gateways"]?["default"] == ["url": .string(gateway.url), "token": "old-token"])
        #expect(SecureFile.mode(of: loginFile) == 0o600)

        let listed = try await CLIProcess.run(["gateways", "--no-check"] + state)
        #expect(listed.stdout == "* default  \(gateway.url)\n")
        let search = try await CLIProcess.run(["search", "lighthouse"] + state)
        #expect(search.status == 0 && search.stdout == before.stdout, "\(search.stdout) \(search.stderr)")
        let tokensAfter = try Data(contentsOf: URL(fileURLWithPath: directory + "/credentials/device-tokens.json"))
        #expect(tokensAfter == tokensBefore)

        // A second gateway joins without disturbing it.
        let other = try await TestGateway.start(TestGatewayConfiguration())
        defer { Task { await other.stop() } }
        #expect(
            try await CLIProcess.run(
                ["login", "--name", "second", "--url", other.url, "--token", "test-token"] + state
            )
            .status == 0)
        #expect(try await CLIProcess.run(["status", "--gateway", "default"] + state).status == 0)
    }
}
