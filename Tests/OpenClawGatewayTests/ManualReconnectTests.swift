import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// What the person (or the app) does to a connection that reconnects by itself: reconnect now, disconnect,
/// and requests made while it is between sockets. Same fast policy as `ReconnectTests`.
@Suite("Reconnect now and disconnect over a real socket")
struct ManualReconnectTests {
    static let fast = ReconnectTests.fast

    @Test func reconnectNowLeavesAHealthyConnectionAlone() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let session = try await connection.connect()
            let attempts = await gateway.receivedConnectParams().count

            await connection.reconnectNow()
            #expect(await connection.state == .connected(session))
            #expect(await gateway.connectionCount() == 1)
            #expect(await gateway.receivedConnectParams().count == attempts)
            await connection.disconnect()
        }
    }

    @Test func reconnectNowAttemptsAtOnceWhileWaitingAndTheAbandonedWaitNeverFires() async throws {
        try await withTestGateway { gateway in
            // A wait long enough that the reconnect made at once lands before it ends on a loaded machine.
            let policy = ReconnectPolicy(initialDelay: .seconds(10), jitter: .none)
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            let first = try await connection.connect()

            await gateway.dropAllConnections()
            let waiting = try #require(await states.first { $0.reconnectStatus != nil }?.reconnectStatus)
            #expect(waiting.delay == .seconds(10))
            await connection.reconnectNow()
            let session = try #require(await connection.state.session)
            #expect(session.generation > first.generation)
            #expect(ContinuousClock.now < waiting.nextAttemptAt)

            // Past the abandoned wait's moment: still the same socket, no second attempt.
            let attempts = await gateway.receivedConnectParams().count
            try await Task.sleep(until: waiting.nextAttemptAt + .milliseconds(500))
            #expect(await connection.state == .connected(session))
            #expect(await gateway.receivedConnectParams().count == attempts)
            #expect(await gateway.connectionCount() == 1)
            await connection.disconnect()
        }
    }

    @Test func reconnectNowReplacesAConnectionThatWentSilent() async throws {
        // A gateway that never ticks and does not answer pings: a socket that died while suspended.
        let script = HostileScript(policy: HostileScript.policy(tickIntervalMs: 100), answersPings: false)
        try await withHostileGateway(script) { gateway in
            // A tolerance of 10 ticks (the most allowed): the liveness watch would take a second to notice.
            let connection = try Harness.connection(url: gateway.url, reconnect: Self.fast) { $0.tickTolerance = 10 }
            let first = try await connection.connect()
            try await Task.sleep(for: .milliseconds(400))

            await connection.reconnectNow()
            let session = try #require(await connection.state.session)
            #expect(session.generation > first.generation)
            #expect(await gateway.waitFor { $0.handshakes == 2 && $0.socketsClosed == 1 })
            await connection.disconnect()
        }
    }

    @Test func disconnectStopsTheLoopWhileWaiting() async throws {
        try await withTestGateway { gateway in
            let policy = ReconnectPolicy(initialDelay: .milliseconds(300), jitter: .none)
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            try await connection.connect()

            await gateway.dropAllConnections()
            #expect(await states.first { $0.reconnectStatus != nil } != nil)
            await connection.disconnect()
            #expect(await connection.state == .disconnected(.closedByClient))

            let attempts = await gateway.receivedConnectParams().count
            try await Task.sleep(for: .milliseconds(700))
            #expect(await gateway.receivedConnectParams().count == attempts)
            #expect(await gateway.connectionCount() == 0)
            #expect(await connection.state == .disconnected(.closedByClient))
        }
    }

    @Test func disconnectDuringAReconnectAttemptStopsIt() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            let states = StateRecorder(connection)
            try await connection.connect()

            // The attempt hangs in the handshake (the challenge comes after 800 ms).
            await gateway.setFaults(FaultPlan(challengeDelayMs: 800))
            let mark = states.entries.count
            await gateway.dropAllConnections()
            #expect(await states.first(from: mark) { $0 == .connecting } != nil)
            await connection.disconnect()
            #expect(await connection.state == .disconnected(.closedByClient))

            let attempts = await gateway.receivedConnectParams().count
            try await Task.sleep(for: .milliseconds(1200))
            #expect(await gateway.receivedConnectParams().count == attempts)
            #expect(await gateway.connectionCount() == 0)
            #expect(await connection.state == .disconnected(.closedByClient))
        }
    }

    @Test func anExplicitDisconnectIsNotFollowedByAReconnect() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: Self.fast)
            try await connection.connect()
            await connection.disconnect()
            let attempts = await gateway.receivedConnectParams().count
            try await Task.sleep(for: .milliseconds(300))
            #expect(await connection.state == .disconnected(.closedByClient))
            #expect(await gateway.receivedConnectParams().count == attempts)
            // The gateway notices the close on its own time (a loaded machine may take a while).
            #expect(await eventually(timeout: .seconds(5)) { await gateway.connectionCount() == 0 })
        }
    }

    @Test func requestsWhileReconnectingFailAtOnce() async throws {
        try await withTestGateway { gateway in
            let policy = ReconnectPolicy(initialDelay: .seconds(30), jitter: .none)
            let connection = try Harness.connection(to: gateway, reconnect: policy)
            let states = StateRecorder(connection)
            try await connection.connect()

            await gateway.dropAllConnections()
            #expect(await states.first { $0.reconnectStatus != nil } != nil)
            let start = ContinuousClock.now
            await #expect(throws: GatewayError.notConnected) {
                try await connection.request("health")
            }
            #expect(ContinuousClock.now - start < .seconds(1))
            await connection.disconnect()
        }
    }
}
