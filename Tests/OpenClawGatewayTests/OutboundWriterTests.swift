import Synchronization
import Testing

@testable import OpenClawGateway

/// Frames leave in the order their places were taken: a frame still being built (attachments) holds
/// its place, and what is queued meanwhile waits behind it.
@Suite("Outbound writer order")
struct OutboundWriterTests {
    @Test func framesQueuedBehindAReservedPlaceWaitUntilItIsFilled() {
        let socket = RecordingSocket()
        let writer = OutboundWriter(socket: socket) { _ in }
        writer.enqueue(.text("before"), requestID: "0")
        let ticket = writer.reserve()
        writer.enqueue(.text("after"), requestID: "2")
        #expect(socket.written == ["before"])
        writer.enqueue(.text("large"), requestID: "1", ticket: ticket)
        #expect(socket.written == ["before", "large", "after"])
    }

    @Test func aPlaceGivenUpLetsTheFramesBehindItGo() {
        let socket = RecordingSocket()
        let writer = OutboundWriter(socket: socket) { _ in }
        let ticket = writer.reserve()
        writer.enqueue(.text("behind"), requestID: "1")
        #expect(socket.written.isEmpty)
        writer.giveUp(ticket)
        #expect(socket.written == ["behind"])
        writer.enqueue(.text("next"), requestID: "2")
        #expect(socket.written == ["behind", "next"])
    }

    @Test func aFrameTheSocketRefusesFailsItsRequest() {
        let socket = RecordingSocket(refuses: true)
        let failed = Mutex<[String]>([])
        let writer = OutboundWriter(socket: socket) { id in failed.withLock { $0.append(id) } }
        writer.enqueue(.text("lost"), requestID: "r1")
        #expect(failed.withLock { $0 } == ["r1"])
    }
}

/// Records what is written, in order; refuses every frame when asked to.
private final class RecordingSocket: WebSocketConnection {
    let events = TransportEvents.makeSource().0
    let refuses: Bool
    private let lines = Mutex<[String]>([])

    init(refuses: Bool = false) { self.refuses = refuses }

    var written: [String] { lines.withLock { $0 } }
    var flow: TransportFlowStats { TransportFlowStats() }
    var lastReceived: ContinuousClock.Instant { .now }
    func sendPing() async {}
    func send(text: String) async throws(TransportError) {}
    func write(text: String, completion: @escaping @Sendable (Bool) -> Void) {
        lines.withLock { $0.append(text) }
        completion(!refuses)
    }
    func close(code: Int) async {}
}
