import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The interactive chat driven as a person drives it — under a pseudo-terminal and under pipes — at the
/// moments that used to break it: Ctrl-C (it crashed on a runtime isolation check), and a connection
/// dropped mid-reply (following waited forever for an outcome, and input was never read again).
@Suite("openclaw-chat: Ctrl-C and dropped connections in the interactive chat")
struct InteractiveReliabilityTests {
    static let crashMarkers = ["crash", "Fatal error", "Signal 4", "Illegal instruction", "backtrace"]

    static func expectNoCrash(_ output: String) {
        for marker in crashMarkers {
            #expect(!output.contains(marker), "crash output (\(marker)):\n\(output)")
        }
    }

    static func withChat(
        _ mode: InteractiveProcess.Mode,
        gateway configuration: TestGatewayConfiguration = TestGatewayConfiguration(),
        _ body: (InteractiveProcess, TestGateway) async throws -> Void
    ) async throws {
        try await CLITests.withGateway(configuration) { gateway, common in
            let chat = try InteractiveProcess(["chat"] + common, mode: mode)
            defer { chat.killIfRunning() }
            try await chat.waitFor("Type a message")
            try await body(chat, gateway)
        }
    }

    @Test(arguments: [InteractiveProcess.Mode.terminal, .pipes])
    func ctrlCWhileIdleQuitsWithoutACrash(mode: InteractiveProcess.Mode) async throws {
        try await Self.withChat(mode) { chat, _ in
            chat.interrupt(mode: mode)
            let status = try await chat.waitForExit()
            #expect(status == 0, "output:\n\(chat.output)")
            Self.expectNoCrash(chat.output)
        }
    }

    @Test(arguments: [InteractiveProcess.Mode.terminal, .pipes])
    func ctrlCMidReplyStopsTheRunAtTheGatewayAndTheChatGoesOn(mode: InteractiveProcess.Mode) async throws {
        try await Self.withChat(mode) { chat, gateway in
            chat.type("slow", mode: mode)
            try await chat.waitFor("word3 ")
            chat.interrupt(mode: mode)
            try await chat.waitFor("■ stopped")
            let stored = await gateway.history(sessionKey: "main")
            let aborted = stored.contains { $0["openclawAbort"]?["aborted"] == true }
            #expect(aborted, "the run was aborted at the gateway")

            chat.type("hello after the stop", mode: mode)
            try await chat.waitFor("You said: \"hello after the stop\"")
            chat.type("/quit", mode: mode)
            let status = try await chat.waitForExit()
            #expect(status == 0, "output:\n\(chat.output)")
            Self.expectNoCrash(chat.output)
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["slow", "hello after the stop"])
        }
    }

    @Test(arguments: [InteractiveProcess.Mode.terminal, .pipes])
    func twoCtrlCsMidReplyQuit(mode: InteractiveProcess.Mode) async throws {
        try await Self.withChat(mode) { chat, _ in
            chat.type("slow", mode: mode)
            try await chat.waitFor("word2 ")
            chat.interrupt(mode: mode)
            try await chat.waitFor("press Ctrl-C again")
            chat.interrupt(mode: mode)
            let status = try await chat.waitForExit()
            #expect(status == 0, "output:\n\(chat.output)")
            Self.expectNoCrash(chat.output)
        }
    }

    @Test(arguments: [3, 4])
    func aDropMidReplyDoesNotFreezeTheChat(version: Int) async throws {
        let mode = InteractiveProcess.Mode.terminal
        try await Self.withChat(mode, gateway: TestGatewayConfiguration(protocolNumber: version)) { chat, gateway in
            // The sockets go after the run's second frame; the run goes on and ends while the client is away.
            await gateway.setFaults(FaultPlan(dropConnectionAfterRunFrames: 2))
            chat.type("cut me off", mode: mode)
            // The catch-up may print the reply before or after the notice that the connection is back.
            try await chat.waitForEach(["● connected", "cut me off\". This is the scripted test agent."])
            await gateway.setFaults(FaultPlan())

            chat.type("and now this", mode: mode)
            try await chat.waitFor("You said: \"and now this\"")
            chat.type("/quit", mode: mode)
            let status = try await chat.waitForExit()
            #expect(status == 0, "output:\n\(chat.output)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["cut me off", "and now this"])
        }
    }

    /// A v3 gateway names no run in flight after a reconnect, so the reducer presumes the run over; its
    /// next events bring it back and the reply is printed to its end, once.
    @Test func aV3RunThatGoesOnAfterAReconnectIsPrintedToItsEndOnce() async throws {
        let mode = InteractiveProcess.Mode.pipes
        var configuration = TestGatewayConfiguration(protocolNumber: 3)
        configuration.agent = ScriptedAgent(slowChunkDelayMs: 40)
        try await Self.withChat(mode, gateway: configuration) { chat, gateway in
            chat.type("slow", mode: mode)
            try await chat.waitFor("word2 ")
            await gateway.setFaults(FaultPlan(challengeDelayMs: 600))
            await gateway.dropAllConnections()
            try await chat.waitFor("● connected", timeout: .seconds(40))
            try await chat.waitFor("word60", timeout: .seconds(40))
            chat.type("typed after the drop", mode: mode)
            try await chat.waitFor("You said: \"typed after the drop\"", timeout: .seconds(40))
            chat.endInput(mode: mode)
            let status = try await chat.waitForExit()
            #expect(status == 0, "output:\n\(chat.output)")
            #expect(chat.output.components(separatedBy: "word1 ").count == 2, "printed once:\n\(chat.output)")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["slow", "typed after the drop"])
        }
    }

    /// A message queued in one session is delivered by the next, and its reply is shown there.
    @Test func theReplyToAMessageQueuedInAnEarlierSessionIsShown() async throws {
        try await Self.queuedThenDelivered("typed in a tunnel", agent: ScriptedAgent()) { online in
            try await online.waitFor("You said: \"typed in a tunnel\"")
        }
    }

    /// A message queued in one session whose reply is still streaming when the next session starts: the
    /// greeting must not show the reply cut where it stood, and the reply is printed whole, once. (Its
    /// delivery could be confirmed before the chat looked at the outbox, and the reply was then left at
    /// the greeting's first words.)
    @Test func aQueuedMessagesReplyStillStreamingAtStartIsPrintedWholeOnce() async throws {
        try await Self.queuedThenDelivered("slow", agent: ScriptedAgent(slowChunkDelayMs: 30)) { online in
            try await online.waitFor("word60", timeout: .seconds(40))
            #expect(online.output.components(separatedBy: "word1 ").count == 2, "printed once:\n\(online.output)")
        }
    }

    /// Queues `message` in a chat whose gateway is down, then starts a chat on the same state with the
    /// gateway up (its agent `agent`), runs `check` on it, quits, and checks the message went out once.
    private static func queuedThenDelivered(
        _ message: String, agent: ScriptedAgent, check: (InteractiveProcess) async throws -> Void
    ) async throws {
        let mode = InteractiveProcess.Mode.pipes
        let state = CLIProcess.temporaryStateDirectory()
        let down = try await RestartablePort.startFirst()
        let url = down.url
        var configuration = TestGatewayConfiguration()
        configuration.port = down.port
        configuration.agent = agent
        await down.stop()
        let offline = try InteractiveProcess(
            ["chat", "--url", url, "--token", "test-token", "--state-dir", state], mode: mode)
        defer { offline.killIfRunning() }
        try await offline.waitFor("Type a message")
        offline.type(message, mode: mode)
        try await offline.waitFor("queued")
        offline.endInput(mode: mode)
        _ = try await offline.waitForExit()

        let gateway = try await TestGateway.start(configuration)
        defer { Task { await gateway.stop() } }
        let online = try InteractiveProcess(
            ["chat", "--url", url, "--token", "test-token", "--state-dir", state], mode: mode)
        defer { online.killIfRunning() }
        try await check(online)
        online.type("/quit", mode: mode)
        let status = try await online.waitForExit()
        #expect(status == 0, "output:\n\(online.output)")
        #expect(await gateway.sentUserMessages(sessionKey: "main") == [message])
    }
}
