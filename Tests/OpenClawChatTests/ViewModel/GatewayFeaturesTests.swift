import OpenClawChat
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The late protocol 4 features the view model uses when the gateway has them, and does without when
/// it does not: queue modes, live usage (`sessions.changed`), the gateway's command list.
@MainActor
@Suite("View model: late v4 gateway features")
struct GatewayFeaturesTests {
    static let slow = ScriptedAgent.custom { _ in
        AgentScript(steps: [.say("first part "), .pause(ms: 500), .say("second part")], chunkDelayMs: 0)
    }

    /// A run that lasts long enough for the steer to land in it on a loaded machine (500 ms did not).
    static let slower = ScriptedAgent.custom { _ in
        AgentScript(steps: [.say("first part "), .pause(ms: 3_000), .say("second part")], chunkDelayMs: 0)
    }

    @Test func aSteerJoinsTheRunningReply() async throws {
        try await ChatHarness.withViewModel(.init(agent: Self.slower)) { fixture in
            let viewModel = fixture.viewModel
            #expect(viewModel.gatewayTakesQueueModes)
            _ = await viewModel.send("start")
            #expect(await eventually { viewModel.isRunning })
            let steerId = await viewModel.steer("and cats")
            #expect(await fixture.gateway.lastRequestParams(method: "chat.send")?["queueMode"] == "steer")
            #expect(await eventually { !viewModel.isRunning })
            #expect(await fixture.gateway.runCount() == 1)
            #expect(viewModel.transcript.entry(id: steerId) != nil)
            #expect(viewModel.alerts.isEmpty)
        }
    }

    @Test func theChatsQueueModeGoesWithEachMessage() async throws {
        try await ChatHarness.withViewModel(.init(agent: Self.slow)) { fixture in
            let viewModel = fixture.viewModel
            viewModel.setQueueMode(.followup)
            #expect(viewModel.queueMode == .followup)
            _ = await viewModel.send("one")
            #expect(await fixture.gateway.lastRequestParams(method: "chat.send")?["queueMode"] == "followup")
            viewModel.setQueueMode(nil)
            _ = await viewModel.send("two")
            #expect(await fixture.gateway.lastRequestParams(method: "chat.send")?["queueMode"] == nil)
        }
    }

    @Test func aGatewayFromBeforeQueueModesGetsThePlainMessage() async throws {
        try await ChatHarness.withViewModel(.init(agent: Self.slow, quirks: .noQueueMode)) { fixture in
            let viewModel = fixture.viewModel
            let id = await viewModel.steer("hello")
            #expect(await fixture.gateway.requestCount(method: "chat.send") == 2)
            #expect(await fixture.gateway.lastRequestParams(method: "chat.send")?["queueMode"] == nil)
            #expect(await eventually { viewModel.transcript.outcome(ofRun: id) != nil })
            #expect(await fixture.gateway.runCount() == 1)
            #expect(viewModel.alerts.isEmpty)
        }
    }

    @Test func aV3GatewayIsNeverSentAQueueMode() async throws {
        try await ChatHarness.withViewModel(.init(protocolNumber: 3, agent: Self.slow)) { fixture in
            let viewModel = fixture.viewModel
            #expect(!viewModel.gatewayTakesQueueModes)
            _ = await viewModel.steer("hello")
            #expect(await fixture.gateway.requestCount(method: "chat.send") == 1)
            #expect(await fixture.gateway.lastRequestParams(method: "chat.send")?["queueMode"] == nil)
            #expect(viewModel.alerts.isEmpty)
        }
    }

    @Test func usageArrivesLiveAfterARun() async throws {
        try await ChatHarness.withViewModel(.init(agent: ScriptedAgent(chunkDelayMs: 0))) { fixture in
            let viewModel = fixture.viewModel
            #expect(await eventually { await fixture.gateway.requestCount(method: "sessions.subscribe") == 1 })
            #expect(viewModel.usage == nil)
            let id = await viewModel.send("hello")
            #expect(await eventually { viewModel.transcript.outcome(ofRun: id) != nil })
            // The run's end report (the start's comes first, with no tokens yet and not fresh).
            #expect(await eventually { viewModel.usage?.totalTokensFresh == true })
            let usage = try #require(viewModel.usage)
            #expect(usage.inputTokens == 12)
            #expect(usage.contextTokens == 200_000)
            #expect(usage.totalTokensFresh == true)
            #expect((usage.contextFraction ?? 0) > 0)
            #expect((usage.estimatedCostUsd ?? 0) > 0)
            #expect(await fixture.gateway.requestCount(method: "sessions.list") == 1)
        }
    }

    @Test func aGatewayWithoutSessionEventsIsNotAskedAndReportsNoUsage() async throws {
        let configuration = TestGatewayConfiguration(agent: ScriptedAgent(chunkDelayMs: 0), quirks: .noSessionsChanged)
        try await ChatHarness.withViewModel(configuration) { fixture in
            let viewModel = fixture.viewModel
            let id = await viewModel.send("hello")
            #expect(await eventually { viewModel.transcript.outcome(ofRun: id) != nil })
            try await Task.sleep(for: .milliseconds(200))
            #expect(viewModel.usage == nil)
            #expect(await fixture.gateway.requestCount(method: "sessions.subscribe") == 0)
            #expect(viewModel.alerts.isEmpty)
        }
    }

    @Test func theGatewaysCommandsAreLoaded() async throws {
        try await ChatHarness.withViewModel(.init()) { fixture in
            let viewModel = fixture.viewModel
            #expect(await eventually { !viewModel.gatewayCommands.isEmpty })
            let compact = try #require(viewModel.gatewayCommands.first { $0.name == "compact" })
            #expect(compact.description == "Compact the session context.")
            #expect(viewModel.gatewayCommands(startingWith: "/st").map(\.name) == ["stop", "status", "steer"])
            #expect(
                await fixture.gateway.lastRequestParams(method: "commands.list") == [
                    "scope": "text", "includeArgs": false,
                ])
        }
    }

    @Test func aGatewayWithoutCommandsListIsNotAsked() async throws {
        try await ChatHarness.withViewModel(.init(quirks: .noCommandsList)) { fixture in
            try await Task.sleep(for: .milliseconds(300))
            #expect(fixture.viewModel.gatewayCommands.isEmpty)
            #expect(await fixture.gateway.requestCount(method: "commands.list") == 0)
            #expect(fixture.viewModel.alerts.isEmpty)
        }
    }
}
