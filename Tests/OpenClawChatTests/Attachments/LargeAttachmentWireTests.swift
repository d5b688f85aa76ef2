import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawChat

/// A message with a file larger than one fragment goes out in fragments (the frame is not held twice),
/// and what is sent meanwhile waits its turn: the gateway gets the file intact and the messages in the
/// order they were sent.
@MainActor
@Suite("Large attachments on the wire")
struct LargeAttachmentWireTests {
    @Test func aFileOfSeveralFragmentsArrivesIntactAndTheNextMessagesWaitTheirTurn() async throws {
        let bytes: [UInt8] = Array("%PDF-1.7\n".utf8) + (0..<2_600_000).map { UInt8(truncatingIfNeeded: $0 &* 131) }
        try await withTestGateway { gateway in
            let connection = try ChatHarness.connection(to: gateway)
            _ = try await connection.connect()
            let client = ChatClient(connection: connection)
            let report = OpenClawChat.Attachment(bytes: bytes, fileName: "manual.pdf")

            async let withFile = client.send(
                sessionKey: "main", message: "the manual", idempotencyKey: "k-file", attachments: [report])
            // Queued while the fragments go out (a head start for the file's request, not a measure): each
            // must wait, not cut into the message.
            try await Task.sleep(for: .milliseconds(100))
            async let after = client.send(sessionKey: "main", message: "and a question", idempotencyKey: "k-after")
            async let health = connection.request("health", params: nil, timeout: .seconds(30))
            _ = try await (withFile, after, health)

            let received = await gateway.receivedAttachments()
            #expect(received.count == 1)
            #expect(received.first?.bytes == bytes, "byte for byte, across \(bytes.count / (1 << 20) + 1) fragments")
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["the manual", "and a question"])
            await connection.disconnect()
        }
    }
}
