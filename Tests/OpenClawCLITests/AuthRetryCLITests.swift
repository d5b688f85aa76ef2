import Foundation
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("openclaw-chat: auth retries as a user meets them")
struct AuthRetryCLITests {
    @Test func aRotatedTokenStillWorksWithTheSavedDeviceTokenAndTheUserIsTold() async throws {
        try await CLITests.withGateway { gateway, common in
            let first = try await CLIProcess.run(["status"] + common)
            #expect(first.status == 0, "stderr: \(first.stderr)")
            var rotated = common
            rotated[3] = "the-token-before-rotation"

            let sent = try await CLIProcess.run(["send"] + rotated + ["still there?"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(sent.stdout.contains("still there?"))
            #expect(sent.stderr.contains("signed in with this device's saved token"))
            #expect(!sent.stderr.contains("the-token-before-rotation"))
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["still there?"])

            // Saving a login checks the token itself: the saved device token must not vouch for it.
            let login = try await CLIProcess.run(["login"] + rotated)
            #expect(login.status == 4, "stderr: \(login.stderr)")
            #expect(login.stderr.contains("Check the gateway token"))
            let stateDir = try #require(common.last)
            #expect(!FileManager.default.fileExists(atPath: stateDir + "/credentials/gateway.json"))
        }
    }

    @Test func aShortToldLockoutIsWaitedOutOnceAndSaidSo() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.authRateLimit = AuthRateLimit(
            maxAttempts: 1, windowMs: 60_000, lockoutMs: 12_000, tellsRetryAfter: true)
        try await CLITests.withGateway(configuration) { _, common in
            var wrong = common
            wrong[3] = "a-wrong-token"
            let refused = try await CLIProcess.run(["status"] + wrong)
            #expect(refused.status == 4)

            let status = try await CLIProcess.run(["status"] + common)
            #expect(status.status == 0, "stderr: \(status.stderr)")
            #expect(status.stderr.contains("refusing sign-ins from this address"))
        }
    }

    @Test func aLongLockoutIsReportedWithTheWait() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.authRateLimit = AuthRateLimit(maxAttempts: 1, windowMs: 60_000, lockoutMs: 300_000)
        try await CLITests.withGateway(configuration) { _, common in
            var wrong = common
            wrong[3] = "a-wrong-token"
            _ = try await CLIProcess.run(["status"] + wrong)
            let status = try await CLIProcess.run(["status"] + common)
            #expect(status.status == 4)
            #expect(status.stderr.contains("Too many failed sign-in attempts"))
            #expect(status.stderr.contains("5 min"))
        }
    }
}
