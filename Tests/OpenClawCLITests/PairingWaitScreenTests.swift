import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

/// A device the gateway has not approved yet: the chat shows what to run on the gateway host, waits, and
/// goes on by itself once approved; a script is told at once.
@Suite("The chat waits for its device's approval")
struct PairingWaitScreenTests {
    @Test func theChatWaitsForTheApprovalAndGoesOnByItself() async throws {
        var configuration = TestGatewayConfiguration(pairing: .requireApproval)
        configuration.deltaThrottleMs = 0
        try await CLITests.withGateway(configuration) { gateway, common in
            let chat = try InteractiveProcess(
                ["chat"] + common, mode: .terminal, environment: ChatScreenTests.colour, size: ChatScreenTests.size)
            defer { chat.killIfRunning() }
            try await chat.waitForScreen("the command to run, and the wait", timeout: .seconds(15)) { screen in
                screen.transcript.contains { $0.contains("On the gateway host run: openclaw devices approve ") }
                    && screen.transcript.contains { $0.hasPrefix("Waiting for the approval") }
            }
            // A retry or two later the gateway still holds one request: each attempt reuses it.
            try await chat.waitFor("Waiting for the approval")
            let pending = await gateway.pendingPairingRequests()
            #expect(pending.count == 1)
            let requestId = try #require(pending.first)
            #expect(chat.screen().transcript.contains { $0.contains("openclaw devices approve \(requestId)") })
            await gateway.approvePairing(requestId: requestId)
            try await chat.waitForScreen("connected and ready", timeout: .seconds(15)) { screen in
                screen.transcript.contains { $0.contains("Approved: connected.") }
                    && screen.transcript.contains { $0.contains("Type a message") }
            }
            chat.type("hello", mode: .terminal)
            try await chat.waitForScreen("the reply", timeout: .seconds(15)) { screen in
                screen.transcript.contains { $0.hasSuffix("is the scripted test agent.") }
            }
            chat.endInput(mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "screen:\n\(chat.screen())")
        }
    }

    @Test func aScriptIsToldAtOnce() async throws {
        try await CLITests.withGateway(TestGatewayConfiguration(pairing: .requireApproval)) { _, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .pipes)
            defer { chat.killIfRunning() }
            chat.endInput(mode: .pipes)
            #expect(try await chat.waitForExit() == 5)
            #expect(chat.output.contains("openclaw devices approve"))
            #expect(!chat.output.contains("Waiting for the approval"))
        }
    }
}
