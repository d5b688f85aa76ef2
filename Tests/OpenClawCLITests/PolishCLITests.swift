import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a new user ran into: exit codes, typos, the token on the command line, logout, the gateway's
/// port and signals, reconnect notices, session names.
@Suite("openclaw-chat: polish found by new users")
struct PolishCLITests {
    @Test func doctorExitsWithTheSameCodesAsTheOtherCommands() async throws {
        try await CLITests.withGateway { _, common in
            var wrong = common
            wrong[3] = "wrong-token"
            let refused = try await CLIProcess.run(["doctor"] + wrong)
            #expect(refused.status == 4, "stdout: \(refused.stdout)")
            #expect(refused.stdout.contains("✗ Auth"))
        }
        var pairing = TestGatewayConfiguration()
        pairing.pairing = .requireApproval
        try await CLITests.withGateway(pairing) { _, common in
            let result = try await CLIProcess.run(["doctor"] + common)
            #expect(result.status == 5, "stdout: \(result.stdout)")
        }
    }

    @Test func usageErrorsExitTwoAndATypoGetsDidYouMean() async throws {
        let typo = try await CLIProcess.run(["sned", "hello"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown command 'sned'. Did you mean 'send'?"))
        // One word like no command is no question either (a secret that lost its option must not be sent).
        let unknown = try await CLIProcess.run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("commands: chat, send"), "\(unknown.stderr)")
        let badValue = try await CLIProcess.run(["history", "--limit", "0"])
        #expect(badValue.status == 2, "stderr: \(badValue.stderr)")
        let missing = try await CLIProcess.run(["send"])
        #expect(missing.status == 2, "stderr: \(missing.stderr)")
        let help = try await CLIProcess.run(["--help"])
        #expect(help.status == 0)
    }

    @Test func loginReadsTheTokenFromStdinAndLogoutSaysWhenThereIsNothingToRemove() async throws {
        try await CLITests.withGateway { gateway, common in
            let state = common[5]
            let login = try await CLIProcess.run(
                ["login", "--url", gateway.url, "--token", "-", "--state-dir", state], stdin: "test-token\n")
            #expect(login.status == 0, "stderr: \(login.stderr)")
            #expect(!login.stdout.contains("test-token"))
            let saved = try String(contentsOfFile: state + "/credentials/gateway.json", encoding: .utf8)
            #expect(saved.contains("\"token\":\"test-token\""))

            let empty = try await CLIProcess.run(
                ["login", "--url", gateway.url, "--token", "-", "--state-dir", state], stdin: "")
            #expect(empty.status == 2)

            let logout = try await CLIProcess.run(["logout", "--state-dir", state])
            #expect(logout.stdout.contains("Logged out"))
            let again = try await CLIProcess.run(["logout", "--state-dir", state])
            #expect(again.status == 0)
            #expect(again.stdout.contains("Nothing to remove"))
        }
    }

    @Test func loginOnATerminalAsksForTheTokenWithoutEcho() async throws {
        try await CLITests.withGateway { gateway, common in
            let state = common[5]
            let login = try InteractiveProcess(["login", "--url", gateway.url, "--state-dir", state], mode: .terminal)
            defer { login.killIfRunning() }
            try await login.waitFor("Gateway token for")
            login.write("test-tokez\u{7F}n\r")
            #expect(try await login.waitForExit() == 0, "output:\n\(login.output)")
            #expect(login.output.contains("Saved as 'default' in"))
            #expect(!login.output.contains("test-tok"), "the token was echoed:\n\(login.output)")
            let saved = try String(contentsOfFile: state + "/credentials/gateway.json", encoding: .utf8)
            #expect(saved.contains("\"token\":\"test-token\""))
        }
    }

    @Test func theGatewayOnABusyPortSaysSo() async throws {
        let occupant = try await TestGateway.start()
        defer { Task { await occupant.stop() } }
        let result = try await CLIProcess.run(["gateway", "--port", String(occupant.port)])
        #expect(result.status == ExitStatus.local)
        #expect(result.stderr.contains("Port \(occupant.port) is in use"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("bind("))
    }

    /// `/help` lists `/approve` and its kin as this chat's own only when it is an approver: without
    /// `--approvals` those lines go to the gateway.
    @Test func helpListsTheApprovalCommandsOnlyForAnApprover() async throws {
        try await CLITests.withGateway { _, common in
            let plain = try await CLIProcess.run(["chat"] + common, stdin: "/help\n/quit\n")
            #expect(plain.status == 0, "stderr: \(plain.stderr)")
            #expect(plain.stdout.contains("/model [N|ID]"), "\(plain.stdout)")
            #expect(!plain.stdout.contains("/approve [ID]"), "\(plain.stdout)")
            #expect(plain.stdout.contains("Started with --approvals"))
            let approver = try await CLIProcess.run(["chat", "--approvals"] + common, stdin: "/help\n/quit\n")
            #expect(approver.stdout.contains("/approve [ID]"), "\(approver.stdout)")
            #expect(!approver.stdout.contains("Started with --approvals"))
        }
    }

    /// `/history` shows what the live reply showed: the agent's tool steps (from the message that made
    /// the call) as well as its text.
    @Test func historyInTheChatShowsTheToolSteps() async throws {
        try await CLITests.withGateway { _, common in
            let result = try await CLIProcess.run(["chat"] + common, stdin: "please use a tool\n/history 10\n/quit\n")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.occurrences(of: "✓ exec: curl") == 2, "live, then in /history: \(result.stdout)")
            #expect(result.stdout.occurrences(of: "The service is healthy") == 2)
        }
    }

    @Test func theGatewayStopsCleanlyOnSIGTERM() async throws {
        let gateway = try InteractiveProcess(["gateway", "--port", "0"], mode: .pipes)
        defer { gateway.killIfRunning() }
        try await gateway.waitFor("listening on")
        gateway.sendSignal(SIGTERM)
        #expect(try await gateway.waitForExit() == 0, "output:\n\(gateway.output)")
        #expect(gateway.output.contains("Test gateway stopped."))
    }

    @Test func aRefusedReconnectPointsAtDoctorAndRedrawsThePrompt() async throws {
        try await CLITests.withGateway { gateway, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .terminal)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            // Both the shared token and the saved device token stop working, so nothing can stand in.
            await gateway.revokeDeviceTokens()
            await gateway.rotateSharedAuth(to: .token("rotated"))
            await gateway.dropAllConnections()
            try await chat.waitFor("refused the token")
            try await chat.waitFor("'openclaw-chat doctor' checks each step")
            try await chat.waitFor("› ")
            chat.endInput(mode: .terminal)
            #expect(try await chat.waitForExit() == 0)
        }
    }

    @Test func theCurrentSessionIsMarkedUnderTheNameItWasOpenedWith() async throws {
        try await CLITests.withGateway { _, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .pipes)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("hello", mode: .pipes)
            try await chat.waitFor("You said")
            chat.type("/sessions", mode: .pipes)
            try await chat.waitFor("● 1. main")
            chat.type("/status", mode: .pipes)
            try await chat.waitFor("session main")
            chat.endInput(mode: .pipes)
            #expect(try await chat.waitForExit() == 0)
            #expect(!chat.output.contains("agent:main:main"), "output:\n\(chat.output)")
        }
    }
}

/// `gateway --require-pairing`: a client's pairing flow end to end against the foreground gateway.
@Suite("openclaw-chat gateway --require-pairing")
struct RequirePairingTests {
    @Test func aNewDeviceWaitsUntilApprovedAtTheConsole() async throws {
        let gateway = try InteractiveProcess(
            ["gateway", "--port", "0", "--token", "test-token", "--require-pairing"], mode: .pipes)
        defer { gateway.killIfRunning() }
        try await gateway.waitFor("listening on ")
        try await gateway.waitFor("\n")
        let line = gateway.output.split(separator: "\n").first { $0.contains("listening on ") } ?? ""
        let url = String(line.split(separator: " ").last ?? "")
        let state = CLIProcess.temporaryStateDirectory()
        let common = ["--url", url, "--token", "test-token", "--state-dir", state]

        let refused = try await CLIProcess.run(["send"] + common + ["hello"])
        #expect(refused.status == 5, "stderr: \(refused.stderr)")
        try await gateway.waitFor("pairing request ")
        gateway.type("approve", mode: .pipes)
        try await gateway.waitFor("approved ")
        let accepted = try await CLIProcess.run(["send"] + common + ["hello"])
        #expect(accepted.status == 0, "stderr: \(accepted.stderr)")
        #expect(accepted.stdout.contains("You said"))
        gateway.sendSignal(SIGTERM)
        #expect(try await gateway.waitForExit() == 0)
    }
}

@Suite("openclaw-chat: /model")
struct ModelCommandTests {
    @Test func modelListsChoicesMarksTheCurrentOneAndSwitches() async throws {
        try await CLITests.withGateway { _, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .pipes)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("hello", mode: .pipes)
            try await chat.waitFor("You said")
            chat.type("/model", mode: .pipes)
            try await chat.waitFor("● 1. openclaw-test/scripted-agent")
            chat.type("/model 2", mode: .pipes)
            try await chat.waitFor("model of main: openclaw-test/scripted-agent-mini")
            chat.type("/model", mode: .pipes)
            try await chat.waitFor("● 2. openclaw-test/scripted-agent-mini")
            chat.type("/model 9", mode: .pipes)
            try await chat.waitFor("no model 9")
            chat.endInput(mode: .pipes)
            #expect(try await chat.waitForExit() == 0)
        }
    }

    @Test func aV3GatewayRefusingThePatchIsReported() async throws {
        try await CLITests.withGateway(TestGatewayConfiguration(protocolNumber: 3)) { _, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: .pipes)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("/model 2", mode: .pipes)
            try await chat.waitFor("operator.admin")
            chat.endInput(mode: .pipes)
            #expect(try await chat.waitForExit() == 0)
        }
    }
}

@Suite("openclaw-chat: a run that ends silently says so")
struct SilentRunTests {
    @Test func sendAndTheChatSayWhenNoReplyCame() async throws {
        try await CLITests.withGateway { _, common in
            let sent = try await CLIProcess.run(["send"] + common + ["stay silent"])
            #expect(sent.status == 0, "stderr: \(sent.stderr)")
            #expect(sent.stdout.isEmpty)
            #expect(sent.stderr.contains("without a reply"))

            let chat = try InteractiveProcess(["chat"] + common, mode: .pipes)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            chat.type("stay silent again", mode: .pipes)
            try await chat.waitFor("(the agent ended its run without a reply)")
            chat.endInput(mode: .pipes)
            #expect(try await chat.waitForExit() == 0)
        }
    }
}
