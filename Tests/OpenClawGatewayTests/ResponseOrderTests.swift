import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawGateway

/// Responses are handed to their callers where the socket reads them, but never ahead of an event
/// that came before them on the wire: the caller finds that event already published.
@Suite("Responses after the events before them")
struct ResponseOrderTests {
    @Test func anEventJustBeforeAResponseIsPublishedBeforeTheCallerSeesTheResponse() async throws {
        try await withTestGateway { gateway in
            let transport = InboundSplicingTransport(base: LiveWebSocketTransport()) { text in
                guard (try? JSONParser().parse(text))?["type"] == "res" else { return [text] }
                return [#"{"type":"event","event":"test.marker","payload":{}}"#, text]
            }
            let connection = try Harness.connection(to: gateway, transport: transport)
            try await connection.connect()
            let events = connection.events()
            var iterator = events.makeAsyncIterator()
            for round in 0..<50 {
                _ = try await connection.request("health")
                // Read without the actor: a check through it would wait for its turn, and so for the event.
                guard events.subscription.buffered.events > 0 else {
                    Issue.record("round \(round): the response came before the event that preceded it")
                    break
                }
                let published = await iterator.next(upTo: 64) ?? []
                #expect(
                    published.contains {
                        if case .event(let frame) = $0 { frame.event == "test.marker" } else { false }
                    })
            }
            await connection.disconnect()
        }
    }
}

/// A transport that lets a test put messages of its own among what the gateway sends, on a real
/// socket: each message the gateway sends is replaced by what `splice` returns, pushed at once.
struct InboundSplicingTransport: WebSocketTransport {
    let base: any WebSocketTransport
    let splice: @Sendable (String) -> [String]

    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        InboundSplicingConnection(base: try await base.connect(to: url, maxFrameSize: maxFrameSize), splice: splice)
    }
}

private final class InboundSplicingConnection: WebSocketConnection {
    let base: any WebSocketConnection
    let events: TransportEvents
    private let relay: Task<Void, Never>

    init(base: any WebSocketConnection, splice: @escaping @Sendable (String) -> [String]) {
        self.base = base
        let (events, source) = TransportEvents.makeSource()
        self.events = events
        let upstream = base.events
        relay = Task {
            for await event in upstream {
                guard case .text(let text) = event else {
                    source.yield(event)
                    continue
                }
                for piece in splice(text) { source.yield(.text(piece)) }
            }
            source.finish()
        }
    }

    deinit { relay.cancel() }

    var flow: TransportFlowStats { base.flow }
    var lastReceived: ContinuousClock.Instant { base.lastReceived }
    func sendPing() async { await base.sendPing() }
    func send(text: String) async throws(TransportError) { try await base.send(text: text) }
    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        base.write(text: text, completion: completion)
    }
    func close(code: Int) async { await base.close(code: code) }
}
