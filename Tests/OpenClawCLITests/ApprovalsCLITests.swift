import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// `openclaw-chat approvals watch` and the interactive chat's `/approve` as a person uses them, against
/// the test gateway's scripted run that needs approval.
@Suite("openclaw-chat: exec approvals")
struct ApprovalsCLITests {
    static let gateway = TestGatewayConfiguration(deltaThrottleMs: 0)

    /// The id of the one approval the gateway holds, once it holds one.
    static func pendingId(_ gateway: TestGateway) async throws -> String {
        let appeared = await eventually(timeout: .seconds(20)) { await !gateway.pendingApprovals().isEmpty }
        #expect(appeared, "no approval is pending at the gateway")
        return try #require(await gateway.pendingApprovals().first)
    }

    @Test func watchAllowsARequestAndTheRunCompletes() async throws {
        try await CLITests.withGateway(Self.gateway) { gateway, common in
            let watch = try InteractiveProcess(["approvals", "watch"] + common, mode: .pipes)
            defer { watch.killIfRunning() }
            try await watch.waitFor("Watching for approval requests")
            async let sent = CLIProcess.run(["send"] + common + ["run a command: make\ttest \u{202E}gpj.exe"])
            try await watch.waitFor("approval needed")
            // The tab and the right-to-left override are shown, not obeyed (the gateway itself strips
            // other control characters from chat messages).
            try await watch.waitFor("command  make⟨TAB⟩test ⟨RLO⟩gpj.exe")
            try await watch.waitFor("cwd      /home/agent/project")
            try await watch.waitFor("⚠ contains control characters")
            try await watch.waitFor("⚠ contains bidirectional text controls")
            try await watch.waitFor("allow ")
            watch.type("allow", mode: .pipes)
            try await watch.waitFor("allowed once by you")
            let result = try await sent
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("Done: the command ran"))
            #expect(await gateway.pendingApprovals().isEmpty)
            watch.endInput(mode: .pipes)
            #expect(try await watch.waitForExit() == 0, "output:\n\(watch.output)")
        }
    }

    /// `always ID` (here a prefix of it) sends `allow-always`: the gateway's resolved event names that
    /// decision, and the run goes on.
    @Test func watchAllowsAlwaysByAPrefixOfTheId() async throws {
        try await CLITests.withGateway(Self.gateway) { gateway, common in
            let watch = try InteractiveProcess(["approvals", "watch"] + common, mode: .pipes)
            defer { watch.killIfRunning() }
            try await watch.waitFor("Watching for approval requests")
            async let sent = CLIProcess.run(["send"] + common + ["run a command"])
            try await watch.waitFor("approval needed")
            let id = try await Self.pendingId(gateway)
            watch.type("always \(id.prefix(6))", mode: .pipes)
            try await watch.waitFor("allowed always by you")
            let result = try await sent
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("Done: the command ran"))
            watch.endInput(mode: .pipes)
            #expect(try await watch.waitForExit() == 0, "output:\n\(watch.output)")
        }
    }

    @Test func watchJSONDeniesByPrefixAndReportsEachObject() async throws {
        try await CLITests.withGateway(Self.gateway) { gateway, common in
            let watch = try InteractiveProcess(["approvals", "watch", "--json"] + common, mode: .pipes)
            defer { watch.killIfRunning() }
            try await watch.waitFor("Watching for approval requests")
            async let sent = CLIProcess.run(["send"] + common + ["run a command"])
            try await watch.waitFor("\"type\":\"request\"")
            let id = try await Self.pendingId(gateway)
            watch.type("nonsense words here", mode: .pipes)
            try await watch.waitFor("\"type\":\"error\"")
            watch.type("deny \(id.prefix(6))", mode: .pipes)
            try await watch.waitFor("\"outcome\":\"deny\"")
            let result = try await sent
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("the approval was denied"))
            watch.interrupt(mode: .pipes)
            #expect(try await watch.waitForExit() == 0, "output:\n\(watch.output)")
            // Every stdout line is one JSON object.
            let objects = watch.output.split(separator: "\n").filter { $0.hasPrefix("{") }
            #expect(objects.count >= 3)
            for line in objects {
                let parsed = try JSONParser().parse(String(line))
                #expect(parsed["type"]?.stringValue != nil)
            }
            let request = try #require(objects.first { $0.contains("\"type\":\"request\"") })
            let parsed = try JSONParser().parse(String(request))
            #expect(
                parsed["id"]?.stringValue == id && parsed["command"] == .string(ScriptedAgent.defaultApprovalCommand))
            #expect(parsed["allowedDecisions"] == ["allow-once", "allow-always", "deny"])
        }
    }

    @Test func watchOnAGatewayThatHasNotApprovedTheScopeExitsWithThePairingCode() async throws {
        try await CLITests.withGateway(TestGatewayConfiguration(pairing: .requireApproval)) { gateway, common in
            let result = try await CLIProcess.run(["approvals", "watch"] + common)
            #expect(result.status == 5, "stderr: \(result.stderr)")
            let requestId = try #require(await gateway.pendingPairingRequests().first)
            #expect(result.stderr.contains("openclaw devices approve \(requestId)"))
        }
    }

    @Test func thePolicyEditorStillAnswersToTheBareCommand() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let result = try await CLIProcess.run(["approvals", "--state-dir", state, "--ask", "always"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("ask=always"))
        let help = try await CLIProcess.run(["approvals", "--help"])
        #expect(help.stdout.contains("watch"))
    }

    @Test func denyingAPatternTheAllowlistDoesNotHaveSaysSoAndChangesNothing() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        let allowed = try await CLIProcess.run(["approvals", "--state-dir", state, "allow", "/usr/bin/git"])
        #expect(allowed.status == 0, "stderr: \(allowed.stderr)")
        let absent = try await CLIProcess.run(["approvals", "--state-dir", state, "deny", "/usr/bin/gti"])
        #expect(absent.status == 0, "stderr: \(absent.stderr)")
        #expect(absent.stdout.contains("/usr/bin/gti is not in the allowlist of agent main: nothing removed."))
        #expect(!absent.stdout.contains("saved"), "\(absent.stdout)")
        #expect(absent.stdout.contains("/usr/bin/git"), "the allowlist is shown as it stays")
        let removed = try await CLIProcess.run(["approvals", "--state-dir", state, "deny", "/usr/bin/git"])
        #expect(removed.stdout.contains("saved"), "\(removed.stdout)")
    }

    @Test func theInteractiveChatListsTheGatewaysHistoryAndARecordedApproval() async throws {
        try await CLITests.withGateway(Self.gateway) { gateway, common in
            let chat = try InteractiveProcess(["chat", "--approvals"] + common, mode: .terminal)
            defer { chat.killIfRunning() }
            try await chat.waitFor("approvals on")
            chat.type("run a command: make release", mode: .terminal)
            try await chat.waitFor("approval needed")
            let id = try await Self.pendingId(gateway)
            chat.type("/deny", mode: .terminal)
            try await chat.waitFor("the approval was denied")
            chat.type("/approvals history", mode: .terminal)
            try await chat.waitFor("✗ denied  \(id.prefix(8))  make release")
            // No longer pending here: the gateway's record says how it ended.
            chat.type("/approvals \(id.prefix(8))", mode: .terminal)
            try await chat.waitForScreen("the recorded approval") { screen in
                screen.transcript.filter { $0.contains("✗ denied  \(id.prefix(8))") }.count == 2
            }
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "output:\n\(chat.output)")
        }
    }

    @Test func theInteractiveChatShowsACardAndApprovesWithASlashCommand() async throws {
        try await CLITests.withGateway(Self.gateway) { gateway, common in
            let chat = try InteractiveProcess(["chat", "--approvals"] + common, mode: .terminal)
            defer { chat.killIfRunning() }
            try await chat.waitFor("approvals on")
            chat.type("run a command", mode: .terminal)
            try await chat.waitFor("approval needed")
            try await chat.waitFor("/approve ")
            chat.type("/approve", mode: .terminal)
            try await chat.waitFor("allowed once by you")
            try await chat.waitFor("Done: the command ran")
            // A second one, denied by a prefix of its id.
            chat.type("run a command: rm -rf /", mode: .terminal)
            try await chat.waitFor("approval needed")
            let id = try await Self.pendingId(gateway)
            chat.type("/deny \(id.prefix(8))", mode: .terminal)
            try await chat.waitFor("denied by you")
            try await chat.waitFor("the approval was denied")
            chat.type("/quit", mode: .terminal)
            #expect(try await chat.waitForExit() == 0, "output:\n\(chat.output)")
        }
    }

    /// A script's `/approve` answers the reply it follows: piped lines wait for replies to end, but the
    /// reply waits for the approval, so an answer goes as soon as there is something to answer.
    @Test func aPipedApproveAnswersTheReplyItFollows() async throws {
        try await CLITests.withGateway(Self.gateway) { _, common in
            let result = try await CLIProcess.run(
                ["chat", "--approvals"] + common, stdin: "run a command\n/approve\n", timeout: .seconds(40))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("allowed once by you"), "\(result.stdout)")
            #expect(result.stdout.contains("Done: the command ran"))
        }
    }

    /// A bare `/approve-always` decides the only pending request with `allow-always`.
    @Test func aBareApproveAlwaysDecidesTheOnlyPendingRequest() async throws {
        try await CLITests.withGateway(Self.gateway) { _, common in
            let result = try await CLIProcess.run(
                ["chat", "--approvals"] + common, stdin: "run a command\n/approve-always\n", timeout: .seconds(40))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("allowed always by you"), "\(result.stdout)")
            #expect(result.stdout.contains("Done: the command ran"))
        }
    }
}
