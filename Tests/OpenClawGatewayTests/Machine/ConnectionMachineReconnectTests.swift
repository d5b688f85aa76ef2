import OpenClawProtocol
import Testing

@testable import OpenClawGateway

/// The connection's end, the reconnect wait and the silence watch as a table.
@Suite("Connection machine: ends, waits and silence")
struct ConnectionMachineReconnectTests {
    typealias Fixture = MachineFixture

    @Test func aDroppedConnectionWaitsThenReconnectsOnANewSocket() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        let reason = DisconnectReason.from(closeCode: 1006, reason: nil, pendingShutdown: nil)

        let actions = fixture.machine.socketEnded(socket, .closed(code: 1006, reason: nil))
        let timer = try #require(fixture.waitToken)
        let status = ReconnectStatus(
            attempt: 1, delay: .milliseconds(100), nextAttemptAt: fixture.clock.now + .milliseconds(100),
            cause: .disconnected(reason))
        #expect(
            actions == [
                .cancelTimer(.liveness), .closeSocket(socket, code: nil), .failRequests(.connectionLost(reason)),
                .note(.disconnected(reason)), .startTimer(.reconnect, timer, after: .milliseconds(100)),
                .publishState(.reconnecting(status)), .note(.reconnecting(status)), .announceDisconnected(reason),
            ])

        let fired = fixture.machine.reconnectTimerFired(timer)
        let next = try #require(Fixture.opened(in: fired))
        #expect(next > socket)
        #expect(fired == [.publishState(.connecting), .openSocket(next)])
        // The same wait cannot fire twice.
        #expect(fixture.machine.reconnectTimerFired(timer) == [])
    }

    @Test func aWaitThatWasReplacedFiresForNothing() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        _ = fixture.machine.socketEnded(socket, .closed(code: 1006, reason: nil))
        let first = try #require(fixture.waitToken)
        // "Reconnect now" during the wait; that attempt fails and a second wait begins.
        _ = fixture.machine.connectRequested()
        let attempt = try #require(fixture.opening)
        _ = fixture.machine.socketOpenFailed(attempt, .transport(.timedOut))
        let second = try #require(fixture.waitToken)
        #expect(second != first)
        let before = fixture.machine.state

        #expect(fixture.machine.reconnectTimerFired(first) == [])
        #expect(fixture.machine.state == before)
        #expect(Fixture.opened(in: fixture.machine.reconnectTimerFired(second)) != nil)
    }

    @Test func disconnectDuringAReconnectWaitCancelsIt() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        _ = fixture.machine.socketEnded(socket, .closed(code: 1012, reason: nil))
        let timer = try #require(fixture.waitToken)

        #expect(
            fixture.machine.disconnectRequested() == [
                .cancelTimer(.reconnect), .publishState(.disconnected(.closedByClient)),
            ])
        #expect(fixture.machine.reconnectTimerFired(timer) == [])
        #expect(fixture.machine.state == .idle(.closedByClient))
    }

    @Test func disconnectDuringAnAutomaticAttemptEndsTheLoop() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        _ = fixture.machine.socketEnded(socket, .closed(code: 1012, reason: nil))
        let timer = try #require(fixture.waitToken)
        let attemptFound = Fixture.opened(in: fixture.machine.reconnectTimerFired(timer))
        let attempt = try #require(attemptFound)
        _ = fixture.machine.socketOpened(attempt)

        _ = fixture.machine.disconnectRequested()
        #expect(fixture.machine.state == .idle(.closedByClient))
        // Whatever the abandoned attempt still reports schedules nothing.
        #expect(fixture.machine.challengeReceived(attempt, .success(Fixture.challenge), request: "r") == [])
        #expect(fixture.machine.socketEnded(attempt, .closed(code: 1006, reason: nil)) == [])
        #expect(fixture.machine.reconnectTimerFired(timer) == [])
        #expect(fixture.machine.state == .idle(.closedByClient))
    }

    @Test func anExplicitDisconnectIsNotFollowedByAReconnect() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        let actions = fixture.machine.disconnectRequested()
        #expect(actions.contains(.closeSocket(socket, code: GatewayCloseCode.normal)))
        #expect(Fixture.timer(.reconnect, in: actions) == nil)
        #expect(fixture.machine.state == .idle(.closedByClient))
    }

    @Test func theBackoffGrowsWhileAttemptsFailAndStartsOverAfterAStableConnection() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        var socket = try #require(socketFound)
        _ = fixture.machine.socketEnded(socket, .closed(code: 1006, reason: nil))
        var attempts: [Int] = []
        for _ in 0..<3 {
            guard case .waitingToReconnect(let wait) = fixture.machine.state else { break }
            attempts.append(wait.status.attempt)
            let nextFound = Fixture.opened(in: fixture.machine.reconnectTimerFired(wait.timer))
            let next = try #require(nextFound)
            _ = fixture.machine.socketOpenFailed(next, .transport(.timedOut))
        }
        #expect(attempts == [1, 2, 3])
        guard case .waitingToReconnect(let wait) = fixture.machine.state else {
            Issue.record("not waiting: \(fixture.machine.state)")
            return
        }
        #expect(wait.status.delay == .milliseconds(800))

        // Back, and up for longer than `stableAfter`: the next drop starts from the first step.
        _ = fixture.machine.reconnectTimerFired(wait.timer)
        let againFound = fixture.authenticate()
        socket = try #require(againFound)
        _ = fixture.machine.helloReceived(socket, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        fixture.clock.advance(by: .seconds(11))
        _ = fixture.machine.socketEnded(socket, .closed(code: 1006, reason: nil))
        #expect(fixture.machine.state.connectionState.reconnectStatus?.attempt == 1)
    }

    @Test func aFirstAttemptIsRetriedOnlyWhenKeptConnected() throws {
        var once = Fixture()
        _ = once.machine.connectRequested()
        let socket = try #require(once.opening)
        _ = once.machine.socketOpenFailed(socket, .transport(.timedOut))
        #expect(once.machine.state == .failed(.transport(.timedOut), loop: nil))

        var kept = Fixture()
        _ = kept.machine.connectRequested(keepConnected: true)
        let keptSocket = try #require(kept.opening)
        _ = kept.machine.socketOpenFailed(keptSocket, .transport(.timedOut))
        #expect(kept.machine.state.connectionState.reconnectStatus?.attempt == 1)

        var noPolicy = Fixture(reconnect: nil)
        _ = noPolicy.machine.connectRequested(keepConnected: true)
        let noPolicySocket = try #require(noPolicy.opening)
        _ = noPolicy.machine.socketOpenFailed(noPolicySocket, .transport(.timedOut))
        #expect(noPolicy.machine.state == .failed(.transport(.timedOut), loop: nil))
    }

    @Test func anErrorRetryingCannotFixPausesTheLoopUntilThePersonActs() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        _ = fixture.machine.socketEnded(socket, .closed(code: 1006, reason: nil))
        let timer = try #require(fixture.waitToken)
        _ = fixture.machine.reconnectTimerFired(timer)
        let attemptFound = fixture.authenticate()
        let attempt = try #require(attemptFound)
        let pairing = GatewayError.pairingRequired(.init(requestId: "p", reason: .notPaired))
        let actions = fixture.machine.refused(attempt, pairing, savedTokenUsable: false)
        #expect(Fixture.timer(.reconnect, in: actions) == nil)
        #expect(fixture.machine.state == .failed(pairing, loop: ConnectionMachine.ReconnectLoop(attempts: 1)))

        // The person's attempt keeps the loop: a retryable failure of it waits again.
        _ = fixture.machine.connectRequested()
        let next = try #require(fixture.opening)
        _ = fixture.machine.socketOpenFailed(next, .transport(.timedOut))
        #expect(fixture.machine.state.connectionState.reconnectStatus?.attempt == 2)
    }

    @Test func aRestartingGatewayIsGivenTheTimeItAskedFor() throws {
        var fixture = Fixture()
        let socketFound = fixture.connect()
        let socket = try #require(socketFound)
        _ = fixture.machine.shutdownAnnounced(socket, ShutdownEvent(reason: "restart", restartExpectedMs: 2000))
        _ = fixture.machine.socketEnded(socket, .closed(code: GatewayCloseCode.serviceRestart, reason: nil))
        let delayFound = fixture.machine.state.connectionState.reconnectStatus?.delay
        let delay = try #require(delayFound)
        #expect(delay >= .seconds(2))
    }

    @Test func aQuietGatewayIsAskedWithAPingThenGivenUp() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socketFound = fixture.authenticate()
        let socket = try #require(socketFound)
        let hello = fixture.machine.helloReceived(socket, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        let timer = try #require(Fixture.timer(.liveness, in: hello))
        let heard = fixture.clock.now
        let next = ConnectionMachine.Action.startTimer(.liveness, timer, after: .milliseconds(250))

        fixture.clock.advance(by: .milliseconds(900))
        #expect(fixture.machine.livenessTick(timer, lastHeard: heard) == [next])
        fixture.clock.advance(by: .milliseconds(200))
        #expect(fixture.machine.livenessTick(timer, lastHeard: heard) == [.note(.probing), .sendPing(socket), next])
        // Still silent, but the ping has not had its time yet.
        fixture.clock.advance(by: .milliseconds(950))
        #expect(fixture.machine.livenessTick(timer, lastHeard: heard) == [next])
        fixture.clock.advance(by: .milliseconds(100))
        let dead = fixture.machine.livenessTick(timer, lastHeard: heard)
        #expect(dead.contains(.closeSocket(socket, code: GatewayCloseCode.tickTimeout)))
        #expect(dead.contains(.announceDisconnected(.tickTimeout(silenceMs: 2000))))
        #expect(fixture.machine.state.connectionState.reconnectStatus != nil)
    }

    @Test func anAnsweredPingKeepsTheSocket() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socketFound = fixture.authenticate()
        let socket = try #require(socketFound)
        let hello = fixture.machine.helloReceived(socket, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        let timer = try #require(Fixture.timer(.liveness, in: hello))
        let heard = fixture.clock.now
        fixture.clock.advance(by: .milliseconds(1100))
        #expect(fixture.machine.livenessTick(timer, lastHeard: heard).contains(.sendPing(socket)))
        let pong = fixture.clock.now + .milliseconds(10)
        fixture.clock.advance(by: .milliseconds(1100))
        // Heard from after the ping, and silent since for longer than `probeAfter`: a new question.
        #expect(fixture.machine.livenessTick(timer, lastHeard: pong).contains(.sendPing(socket)))
        #expect(fixture.machine.state.connectionState.isConnected)
    }
}
