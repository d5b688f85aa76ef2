import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// `/help` with the gateway's own commands, `/usage` from live session events, `/queue` and `/steer`,
/// through the real program against gateways with and without those features.
@Suite("openclaw-chat: gateway commands, usage and queue modes")
struct GatewayFeaturesCLITests {
    private static func chat(_ common: [String], typing lines: [String]) async throws -> String {
        let result = try await CLIProcess.run(
            ["chat"] + common, stdin: (lines + ["/quit"]).joined(separator: "\n") + "\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return result.stdout
    }

    @Test func helpListsTheGatewaysCommandsAndUsageShowsTheSession() async throws {
        try await CLITests.withGateway { gateway, common in
            let out = try await Self.chat(common, typing: ["hello", "/help", "/usage", "/queue followup", "/queue"])
            #expect(out.contains("The gateway's commands"), "output:\n\(out)")
            #expect(out.contains("/compact …"), "output:\n\(out)")
            #expect(out.contains("Compact the session context."))
            #expect(out.contains("tokens: 12 in, "), "output:\n\(out)")
            #expect(out.contains("context: "), "output:\n\(out)")
            #expect(out.contains(" of 200k ("), "output:\n\(out)")
            #expect(out.contains("estimated cost: $"), "output:\n\(out)")
            #expect(out.contains("messages typed during a reply wait, each answered after it"))
            #expect(out.contains("queue mode: followup"))
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["hello"])
        }
    }

    /// Every usage is shown whole, its description after a space (`/approvals [ID|history]` was cut to
    /// 22 characters and ran into its description).
    @Test func helpShowsEachUsageWholeBeforeItsDescription() async throws {
        try await CLITests.withGateway { _, common in
            let out = try await Self.chat(common + ["--approvals", "--questions"], typing: ["hello", "/help"])
            #expect(out.contains("  /approvals [ID|history]  pending approvals"), "output:\n\(out)")
            #expect(out.contains("  /think LEVEL|show|hide   "), "output:\n\(out)")
            #expect(out.contains("  /compact …               Compact the session context."), "output:\n\(out)")
        }
    }

    /// `/help` as the first line, while `commands.list` may still be on its way, lists the gateway's commands.
    @Test func helpRightAfterConnectingListsTheGatewaysCommands() async throws {
        try await CLITests.withGateway { _, common in
            let out = try await Self.chat(common, typing: ["/help"])
            #expect(out.contains("The gateway's commands"), "output:\n\(out)")
        }
    }

    @Test func steerGoesWithTheMessageOnAV4Gateway() async throws {
        try await CLITests.withGateway { gateway, common in
            let out = try await Self.chat(common, typing: ["/steer look left"])
            #expect(await gateway.lastRequestParams(method: "chat.send")?["queueMode"] == "steer")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["look left"], "output:\n\(out)")
        }
    }

    @Test func anOlderGatewayGetsItsOwnCommandsAndNoList() async throws {
        let configuration = TestGatewayConfiguration(
            protocolNumber: 3, quirks: [.noCommandsList, .noSessionsChanged])
        try await CLITests.withGateway(configuration) { gateway, common in
            let out = try await Self.chat(common, typing: ["hello", "/help", "/usage", "/queue collect", "/steer go"])
            #expect(!out.contains("The gateway's commands"), "output:\n\(out)")
            #expect(out.contains("this gateway does not report usage live"), "output:\n\(out)")
            #expect(out.contains("this gateway takes no mode per message"), "output:\n\(out)")
            #expect(
                await gateway.sentUserMessages(sessionKey: "main") == ["hello", "/queue collect", "/steer go"],
                "output:\n\(out)")
            #expect(await gateway.requestCount(method: "commands.list") == 0)
        }
    }
}
