import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawGateway

/// The test gateway's burst writer frames text itself (for the benchmark): each length form of
/// RFC 6455 must reach a real client intact, in order.
@Suite("Test gateway: burst writer")
struct BurstWriterTests {
    /// A frame of exactly `length` bytes, numbered `index`.
    private static func frame(_ index: Int, length: Int) -> String {
        head(index) + String(repeating: "x", count: padLength(index, length: length)) + tail
    }

    private static func head(_ index: Int) -> String {
        #"{"type":"event","event":"burst.\#(index)","payload":{"pad":""#
    }
    private static let tail = #""}}"#

    private static func padLength(_ index: Int, length: Int) -> Int {
        length - head(index).utf8.count - tail.utf8.count
    }

    @Test func everyLengthFormArrivesIntactAndInOrder() async throws {
        // 7-bit lengths up to 125, 16-bit from 126 to 65,535, 64-bit above; and batches that split between.
        let lengths = [60, 125, 126, 127, 65_535, 65_536, 70_000, 61, 125]
        let frames = lengths.enumerated().map { Self.frame($0.offset, length: $0.element) }
        #expect(frames.map(\.utf8.count) == lengths)
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway) { $0.maxInboundFrameBytes = 1 << 20 }
            let recorder = EventRecorder(connection)
            try await connection.connect()
            try await gateway.sendRawBurst(frames, batchBytes: 1000)
            let received = {
                recorder.events.compactMap { event -> EventFrame? in
                    if case .event(let frame) = event, frame.event.hasPrefix("burst.") { return frame }
                    return nil
                }
            }
            #expect(await eventually { received().count == frames.count })
            #expect(received().map(\.event) == frames.indices.map { "burst.\($0)" })
            let pads = received().map { $0.payload?["pad"]?.stringValue?.utf8.count ?? -1 }
            #expect(pads == lengths.enumerated().map { Self.padLength($0.offset, length: $0.element) })
            #expect(await connection.state.isConnected)
        }
    }
}
