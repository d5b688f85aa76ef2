import OpenClawAppModel
import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The app's approval sheet model, against the test gateway over 127.0.0.1: what a card shows, the
/// decisions, and a card that closes when another approver decides.
@MainActor
@Suite("Approvals in the app")
struct ApprovalsModelTests {
    @Test func theDemoShowsTheSheetAndAnAllowedCommandRuns() async throws {
        let app = AppModel(dependencies: AppHarness.dependencies())
        await app.launch()
        await app.startDemo()
        let context = try #require(app.demo?.context)
        let approvals = try #require(context.approvals, "the demo is an approver")
        #expect(context.connection.configuration.caps.contains(ExecApprovalNames.execApprovalsCap))
        #expect(await waitUntil { approvals.availability == .active })

        await context.chat.session.send("run a command: ls \u{202E}gpj.exe\u{202C}")
        #expect(await waitUntil { approvals.cards.count == 1 })
        let card = try #require(approvals.presented)
        #expect(card.command == "ls ⟨RLO⟩gpj.exe⟨PDF⟩")
        #expect(card.warnings.count == 1 && card.warnings[0].contains("bidirectional"))
        #expect(card.actions.map(\.title) == ["Allow once", "Always allow", "Deny"])
        #expect(card.details.map(\.label) == ["Directory", "Host", "Agent", "Session", "Executable"])
        #expect(card.details.first?.value == "/home/agent/project")
        #expect(card.countdown(at: .now).hasPrefix("29:") || card.countdown(at: .now) == "30:00")
        #expect(approvals.bannerText == "A command is waiting for your approval")
        #expect(!card.isTruncated)
        approvals.toggleFullCommand(card)
        #expect(approvals.isExpanded(card))
        #expect(card.fullCommand == "ls ⟨RLO⟩gpj.exe⟨PDF⟩\n[0] ls\n[1] ⟨RLO⟩gpj.exe⟨PDF⟩")

        await approvals.decide(card, .allowOnce)
        #expect(approvals.cards.isEmpty && approvals.presented == nil && approvals.bannerText == nil)
        #expect(approvals.notice == ApprovalsModel.Notice(message: "Allowed once.", nextStep: nil, isError: false))
        #expect(!approvals.isExpanded(card))
        let finished = await waitUntil {
            context.chat.messages.last.map { $0.role == .assistant && $0.text.hasPrefix("Done") } ?? false
        }
        #expect(finished)
        await app.exitDemo()
    }

    @Test func aCardClosesWhenAnotherApproverDecides() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration(deltaThrottleMs: 0))
        defer { Task { await gateway.stop() } }
        var dependencies = AppHarness.dependencies(saved: try AppHarness.saved(gateway))
        dependencies.approvesCommands = true
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        let context = try #require(await AppHarness.connectedChat(app))
        let approvals = try #require(context.approvals)
        #expect(await waitUntil { approvals.availability == .active })

        // Another approver: a terminal on the same gateway.
        var configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: gateway.url), credential: .token("test-token"),
            client: ClientInfo(id: .cli, mode: .cli, version: "test", platform: "linux", displayName: "Peter's Mac"))
        configuration.enableApprovals(required: true)
        let other = GatewayConnection(
            configuration: configuration,
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore())
        let otherClient = ApprovalsClient(connection: other)
        await otherClient.start()
        try await other.connect()

        await context.chat.session.send("run a command")
        #expect(await waitUntil { approvals.cards.count == 1 })
        #expect(await eventually(timeout: .seconds(15)) { await otherClient.pending.count == 1 })
        let card = try #require(approvals.presented)
        try await otherClient.decide(card.id, .deny)
        #expect(await waitUntil { approvals.cards.isEmpty })
        #expect(approvals.notice?.message == "Denied by Peter's Mac.")
        // Too late here: the model says so and keeps nothing open.
        await approvals.decide(card, .allowOnce)
        #expect(approvals.notice?.isError == true)
        #expect(approvals.cards.isEmpty)
        let denied = await waitUntil {
            context.chat.messages.last.map { $0.role == .assistant && $0.text.contains("denied by Peter's Mac") }
                ?? false
        }
        #expect(denied)
        await otherClient.stop()
        await other.disconnect()
    }

    @Test func withoutTheSettingNothingAsksForTheScope() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration())
        defer { Task { await gateway.stop() } }
        let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
        await app.launch()
        let context = try #require(await AppHarness.connectedChat(app))
        #expect(context.approvals == nil)
        let connect = try #require(await gateway.receivedConnectParams().last)
        #expect(connect["scopes"] == ["operator.read", "operator.write"])
        #expect(connect["caps"] == ["tool-events"])
    }
}
