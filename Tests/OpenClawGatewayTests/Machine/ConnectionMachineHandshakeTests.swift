import OpenClawProtocol
import Testing

@testable import OpenClawGateway

/// The handshake as a table: state × event → actions, without sockets or clocks.
@Suite("Connection machine: the handshake")
struct ConnectionMachineHandshakeTests {
    typealias Fixture = MachineFixture

    @Test func eachStepOfTheHandshakeAsksForTheNextAndItsTimer() throws {
        var fixture = Fixture()
        #expect(fixture.machine.connectRequested() == [.publishState(.connecting), .openSocket(SocketID(rawValue: 1))])
        let socket = try #require(fixture.opening)

        let opened = fixture.machine.socketOpened(socket)
        let challengeTimer = try #require(Fixture.timer(.challenge, in: opened))
        #expect(opened == [.startTimer(.challenge, challengeTimer, after: .seconds(6))])

        let challenged = fixture.machine.challengeReceived(socket, .success(Fixture.challenge), request: "r1")
        let handshakeTimer = try #require(Fixture.timer(.handshake, in: challenged))
        #expect(
            challenged == [
                .cancelTimer(.challenge),
                .sendConnect(
                    socket, challenge: Fixture.challenge, request: "r1", scopes: ["operator.read"],
                    savedDeviceToken: false),
                .startTimer(.handshake, handshakeTimer, after: .seconds(12)),
            ])
        #expect(fixture.machine.socketAwaitingHello(request: "r1") == socket)
        #expect(fixture.machine.socketAwaitingHello(request: "other") == nil)

        let hello = fixture.machine.helloReceived(socket, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        let sessionFound = fixture.machine.state.connectionState.session
        let session = try #require(sessionFound)
        #expect(session.generation == socket.rawValue)
        let liveness = try #require(Fixture.timer(.liveness, in: hello))
        #expect(
            hello == [
                .cancelTimer(.handshake), .startTimer(.liveness, liveness, after: .milliseconds(250)),
                .publishState(.connected(session)), .announceConnected(session), .note(.connected(session)),
                .finishAttempt(.success(session)),
            ])
    }

    @Test func aSecondConnectJoinsTheAttemptUnderWay() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socket = try #require(fixture.opening)
        _ = fixture.machine.socketOpened(socket)
        let before = fixture.machine.state
        #expect(fixture.machine.connectRequested() == [])
        #expect(fixture.machine.state == before)
    }

    @Test func eventsOfAnEarlierSocketMatchNothing() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let oldFound = fixture.authenticate(request: "old")
        let old = try #require(oldFound)
        _ = fixture.machine.disconnectRequested()
        let currentFound = fixture.connect()
        let current = try #require(currentFound)
        #expect(current != old)
        let before = fixture.machine.state

        #expect(!fixture.machine.expectsSocket(old))
        #expect(fixture.machine.socketOpened(old) == [])
        #expect(fixture.machine.socketOpenFailed(old, .transport(.timedOut)) == [])
        #expect(fixture.machine.challengeReceived(old, .success(Fixture.challenge), request: "x") == [])
        #expect(fixture.machine.socketAwaitingHello(request: "old") == nil)
        #expect(fixture.machine.helloReceived(old, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d") == [])
        #expect(fixture.machine.refused(old, .authFailed(Fixture.refusedToken), savedTokenUsable: true) == [])
        #expect(fixture.machine.handshakeFailed(old, .cancelled) == [])
        #expect(fixture.machine.socketEnded(old, .closed(code: 1012, reason: nil)) == [])
        #expect(fixture.machine.shutdownAnnounced(old, nil) == [])
        #expect(
            fixture.machine.closeRequested(
                old, reason: .tickTimeout(silenceMs: 1), closeCode: GatewayCloseCode.tickTimeout)
                == [])
        #expect(fixture.machine.state == before)
    }

    @Test func timersThatWereReplacedMatchNothing() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socket = try #require(fixture.opening)
        let firstChallengeFound = Fixture.timer(.challenge, in: fixture.machine.socketOpened(socket))
        let firstChallenge = try #require(firstChallengeFound)
        let challenged = fixture.machine.challengeReceived(socket, .success(Fixture.challenge), request: "r")
        let handshake = try #require(Fixture.timer(.handshake, in: challenged))
        #expect(fixture.machine.challengeTimerFired(firstChallenge) == [])
        let hello = fixture.machine.helloReceived(socket, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        let liveness = try #require(Fixture.timer(.liveness, in: hello))
        let before = fixture.machine.state

        #expect(fixture.machine.handshakeTimerFired(handshake) == [])
        #expect(fixture.machine.reconnectTimerFired(handshake) == [])
        #expect(fixture.machine.reconnectTimerFired(fixture.machine.reconnectToken) == [])
        #expect(fixture.machine.livenessTick(handshake, lastHeard: fixture.clock.now) == [])
        #expect(fixture.machine.state == before)
        #expect(
            fixture.machine.livenessTick(liveness, lastHeard: fixture.clock.now)
                == [.startTimer(.liveness, liveness, after: .milliseconds(250))])
    }

    @Test func aChallengeThatDoesNotComeFailsTheAttempt() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socket = try #require(fixture.opening)
        let timerFound = Fixture.timer(.challenge, in: fixture.machine.socketOpened(socket))
        let timer = try #require(timerFound)
        let error = GatewayError.challengeTimeout(afterMs: 6000)
        #expect(
            fixture.machine.challengeTimerFired(timer) == [
                .cancelTimer(.challenge), .closeSocket(socket, code: GatewayCloseCode.normal),
                .note(.connectFailed(error)), .publishState(.failed(error)), .finishAttempt(.failure(error)),
            ])
        // A first attempt is not retried by itself (reconnecting starts with the first handshake).
        #expect(fixture.machine.state == .failed(error, loop: nil))
    }

    @Test func aRefusedSharedTokenFallsBackOnceToTheSavedDeviceToken() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let firstFound = fixture.authenticate()
        let first = try #require(firstFound)
        let refusal = GatewayError.authFailed(Fixture.refusedToken)

        let actions = fixture.machine.refused(first, refusal, savedTokenUsable: true)
        let retry = try #require(Fixture.opened(in: actions))
        #expect(
            actions == [
                .cancelTimer(.handshake), .closeSocket(first, code: GatewayCloseCode.normal),
                .note(.connectFailed(refusal)), .note(.fallingBackToSavedDeviceToken), .openSocket(retry),
            ])
        #expect(fixture.machine.state.attempt?.credential == .fallback(after: Fixture.refusedToken))
        #expect(fixture.machine.state.connectionState == .connecting)

        // The retry sends the saved token; once accepted, later attempts start with it.
        _ = fixture.machine.socketOpened(retry)
        let challenged = fixture.machine.challengeReceived(retry, .success(Fixture.challenge), request: "r2")
        #expect(challenged.contains { if case .sendConnect(_, _, _, _, true) = $0 { true } else { false } })
        _ = fixture.machine.helloReceived(retry, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        #expect(fixture.machine.prefersSavedDeviceToken)
        _ = fixture.machine.disconnectRequested()
        _ = fixture.machine.connectRequested()
        #expect(fixture.machine.state.attempt?.credential == .savedDeviceToken)
    }

    @Test func whenTheSavedTokenIsRefusedTooTheFirstRefusalIsReported() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let firstFound = fixture.authenticate()
        let first = try #require(firstFound)
        let retryFound = Fixture.opened(
            in: fixture.machine.refused(first, .authFailed(Fixture.refusedToken), savedTokenUsable: true))
        let retry = try #require(retryFound)
        _ = fixture.authenticate()
        let stale = GatewayError.AuthFailure(
            code: .authDeviceTokenMismatch, message: "stale", canRetryWithDeviceToken: true)
        let actions = fixture.machine.refused(retry, .authFailed(stale), savedTokenUsable: true)
        let reported = GatewayError.authFailed(Fixture.refusedToken)
        #expect(Fixture.opened(in: actions) == nil, "one fallback only")
        #expect(actions.last == .finishAttempt(.failure(reported)))
        #expect(fixture.machine.state == .failed(reported, loop: nil))
        #expect(!fixture.machine.prefersSavedDeviceToken)
    }

    @Test(arguments: [(usable: false, offered: true), (usable: true, offered: false)])
    func noFallbackUnlessOfferedAndUsable(usable: Bool, offered: Bool) throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socketFound = fixture.authenticate()
        let socket = try #require(socketFound)
        let failure = GatewayError.AuthFailure(
            code: .authTokenMismatch, message: "no", canRetryWithDeviceToken: offered)
        let actions = fixture.machine.refused(socket, .authFailed(failure), savedTokenUsable: usable)
        #expect(Fixture.opened(in: actions) == nil)
        #expect(fixture.machine.state == .failed(.authFailed(failure), loop: nil))
    }

    @Test func refusedOptionalScopesAreDroppedOnce() throws {
        var fixture = Fixture(optionalScopes: ["operator.admin"])
        _ = fixture.machine.connectRequested()
        let first = try #require(fixture.opening)
        _ = fixture.machine.socketOpened(first)
        let challenged = fixture.machine.challengeReceived(first, .success(Fixture.challenge), request: "r")
        #expect(
            challenged.contains {
                if case .sendConnect(_, _, _, ["operator.read", "operator.admin"], _) = $0 { true } else { false }
            })
        let pairing = GatewayError.PairingRequest(requestId: "p1", reason: .scopeUpgrade)

        let actions = fixture.machine.refused(first, .pairingRequired(pairing), savedTokenUsable: false)
        let retry = try #require(Fixture.opened(in: actions))
        #expect(
            actions == [
                .cancelTimer(.handshake), .closeSocket(first, code: GatewayCloseCode.normal), .openSocket(retry),
            ])
        let refusal = ScopeRefusal(scopes: ["operator.admin"], pairing: pairing)
        #expect(fixture.machine.state.attempt?.scopeRefusal == refusal)

        _ = fixture.machine.socketOpened(retry)
        let again = fixture.machine.challengeReceived(retry, .success(Fixture.challenge), request: "r2")
        #expect(again.contains { if case .sendConnect(_, _, _, ["operator.read"], _) = $0 { true } else { false } })
        // Refused again: no third socket.
        let refusedAgain = fixture.machine.refused(retry, .pairingRequired(pairing), savedTokenUsable: false)
        #expect(Fixture.opened(in: refusedAgain) == nil)
        #expect(fixture.machine.state == .failed(.pairingRequired(pairing), loop: nil))
    }

    @Test func aSessionWithoutTheRefusedScopesSaysSo() throws {
        var fixture = Fixture(optionalScopes: ["operator.admin"])
        _ = fixture.machine.connectRequested()
        let firstFound = fixture.authenticate()
        let first = try #require(firstFound)
        let mismatch = GatewayError.AuthFailure(code: .authScopeMismatch, message: "scopes")
        _ = fixture.machine.refused(first, .authFailed(mismatch), savedTokenUsable: false)
        let retryFound = fixture.authenticate()
        let retry = try #require(retryFound)
        _ = fixture.machine.helloReceived(retry, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d")
        let sessionFound = fixture.machine.state.connectionState.session
        let session = try #require(sessionFound)
        #expect(session.scopes == ["operator.read"])
        #expect(session.scopeRefusal == ScopeRefusal(scopes: ["operator.admin"], pairing: nil))
    }

    @Test func disconnectDuringTheHandshakeEndsTheAttemptAndItsLateAnswerMatchesNothing() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socketFound = fixture.authenticate(request: "r")
        let socket = try #require(socketFound)
        let reason = DisconnectReason.closedByClient
        #expect(
            fixture.machine.disconnectRequested() == [
                .cancelTimer(.handshake), .closeSocket(socket, code: GatewayCloseCode.normal),
                .publishState(.disconnected(reason)), .finishAttempt(.failure(.connectionLost(reason))),
            ])
        #expect(fixture.machine.socketAwaitingHello(request: "r") == nil)
        #expect(
            fixture.machine.helloReceived(socket, hello: Fixture.hello(), protocolVersion: .v3, deviceId: "d") == [])
        #expect(fixture.machine.state == .idle(reason))
    }

    @Test func disconnectWhileTheSocketOpensLeavesItUnwanted() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socket = try #require(fixture.opening)
        let actions = fixture.machine.disconnectRequested()
        #expect(!actions.contains { if case .closeSocket = $0 { true } else { false } })
        #expect(!fixture.machine.expectsSocket(socket))
        #expect(fixture.machine.socketOpened(socket) == [])
        #expect(fixture.machine.state == .idle(.closedByClient))
    }

    @Test func aCloseDuringTheHandshakeIsTheAttemptsError() throws {
        var fixture = Fixture()
        _ = fixture.machine.connectRequested()
        let socketFound = fixture.authenticate()
        let socket = try #require(socketFound)
        let actions = fixture.machine.socketEnded(socket, .closed(code: 1008, reason: "pairing required"))
        guard case .finishAttempt(.failure(let error))? = actions.last else {
            Issue.record("the attempt did not end: \(actions)")
            return
        }
        #expect(fixture.machine.state == .failed(error, loop: nil))
    }
}
