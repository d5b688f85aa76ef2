import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// A frame over the inbound limit at real sizes (issue 38.8): 40 MiB was dropped and the connection
/// went on (the messages after it delivered, a reply shown without that part); 60 MiB ended as a plain
/// drop. Either must end the connection at once with the 1009 reason that names the limit, and nothing
/// sent after the oversized frame may be delivered.
@Suite("Oversize frames at real sizes")
struct OversizeFrameTests {
    @Test(arguments: [40, 60])
    func aFrameOverTheLimitEndsTheConnectionWithItsReasonAndNothingAfterItIsDelivered(mebibytes: Int) async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            let states = StateRecorder(connection)
            let events = EventRecorder(connection)
            try await connection.connect()
            let big = String(repeating: "x", count: mebibytes << 20)
            await gateway.sendRaw(contentsOf: [
                #"{"type":"event","event":"big","payload":{"text":"\#(big)"}}"#,
                #"{"type":"event","event":"after.big","payload":{}}"#,
            ])
            let ended = await states.first(timeout: .seconds(60)) {
                if case .disconnected(.some) = $0 { true } else { false }
            }
            guard case .disconnected(let reason?) = ended else {
                Issue.record("the connection did not end: \(states.states)")
                return
            }
            #expect(
                reason.description == "the gateway sent a frame larger than 25 MiB, the most this connection accepts",
                "\(reason)")
            #expect(
                !events.contains { event in
                    if case .event(let frame) = event { frame.event == "after.big" } else { false }
                })
            await connection.disconnect()
        }
    }

    /// Memory stays bounded by the limit: a 60 MiB frame is refused from its header, not read whole
    /// first. Loopback's socket buffers hold far less than 60 MiB, so a gateway whose big frame the
    /// client stopped reading never gets to write the frame after it.
    @Test func a60MiBFrameIsRefusedBeforeItIsReadWhole() async throws {
        let big = String(repeating: "x", count: 60 << 20)
        let script = HostileScript(afterHello: [
            .text(#"{"type":"event","event":"big","payload":{"text":"\#(big)"}}"#),
            .text(#"{"type":"event","event":"after.big","payload":{}}"#),
        ])
        try await withHostileGateway(script) { gateway in
            let connection = try Harness.connection(url: gateway.url)
            let states = StateRecorder(connection)
            _ = try? await connection.connect()
            let ended = await states.first(timeout: .seconds(60)) {
                $0 == .disconnected(.inboundTooLarge(limitBytes: 25 << 20))
                    || $0 == .failed(.connectionLost(.inboundTooLarge(limitBytes: 25 << 20)))
            }
            #expect(ended != nil, "states: \(states.states)")
            try await Task.sleep(for: .milliseconds(500))
            #expect(gateway.observed.scriptsCompleted == 0)
            await connection.disconnect()
        }
    }
}
