import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Synchronization
import Testing

@testable import OpenClawGateway

/// Frames leave in the order they were queued, and a handshake whose socket was let go meanwhile
/// does not complete.
@Suite("Outbound order and handshake generations")
struct OutboundOrderTests {
    @Test func framesReachTheSocketInTheOrderTheyWereQueued() async throws {
        try await withTestGateway { gateway in
            let wire = WireLog()
            let trace = TraceRecorder()
            let transport = SlowSendingTransport(base: LiveWebSocketTransport(), log: wire)
            let connection = try Harness.connection(to: gateway, transport: transport, trace: trace)
            try await connection.connect()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask { _ = try? await connection.request("health", timeout: .seconds(20)) }
                }
            }
            let queued = trace.all.compactMap(Self.requestID)
            #expect(queued.count == 41)
            #expect(wire.ids == queued)
            await connection.disconnect()
        }
    }

    @Test func aHandshakeWhoseSocketWasLetGoDoesNotComplete() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            let session = try await connection.connect()
            let events = EventRecorder(connection)
            await connection.disconnect()
            // The hello-ok of the old socket, handled after disconnect() (the gap after its await).
            let frame = ResponseFrame(id: "late", ok: true, payload: Self.helloJSON(session))
            let result = await connection.completeHandshake(
                frame, identity: DeviceIdentity(createdAtMs: 0), generation: session.generation)
            #expect(throws: GatewayError.self) { try result.get() }
            #expect(await connection.state == .disconnected(.closedByClient))
            #expect(!events.contains { if case .connected = $0 { return true } else { return false } })
        }
    }

    static func requestID(_ line: String) -> String? {
        guard let frame = try? JSONParser().parse(line), frame["type"] == "req" else { return nil }
        return frame["id"]?.stringValue
    }

    static func helloJSON(_ session: GatewaySession) -> JSONValue {
        [
            "type": "hello-ok", "protocol": .int(session.hello.protocolNumber),
            "server": ["version": "x", "connId": "y"],
        ]
    }
}

/// Request ids in the order frames reached the socket.
final class WireLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ text: String) { lines.withLock { $0.append(text) } }
    var ids: [String] { lines.withLock { $0 }.compactMap(OutboundOrderTests.requestID) }
}

/// A transport whose sends each take a random while, as a busy event loop might: frames sent from
/// separate tasks overtake each other. Frames handed over in order (`write`) are logged as handed.
struct SlowSendingTransport: WebSocketTransport {
    let base: any WebSocketTransport
    let log: WireLog

    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        SlowSendingConnection(base: try await base.connect(to: url, maxFrameSize: maxFrameSize), log: log)
    }
}

private struct SlowSendingConnection: WebSocketConnection {
    let base: any WebSocketConnection
    let log: WireLog
    var events: TransportEvents { base.events }
    var flow: TransportFlowStats { base.flow }
    var lastReceived: ContinuousClock.Instant { base.lastReceived }
    func sendPing() async { await base.sendPing() }
    func send(text: String) async throws(TransportError) {
        try? await Task.sleep(for: .microseconds(Int.random(in: 0...3000)))
        log.append(text)
        try await base.send(text: text)
    }
    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        log.append(text)
        base.write(text: text, completion: completion)
    }
    func close(code: Int) async { await base.close(code: code) }
}
