import Foundation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Test gateway attachments")
struct AttachmentTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300).map { UInt8($0 % 251) }
    static let pdf: [UInt8] = Array("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n".utf8) + [0xE2, 0x80, 0x93, 0x00, 0xFF]
    static let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 40)

    private func send(
        _ client: RawGatewayClient, key: String, message: String = "see attached", attachments: [JSONValue]
    ) async throws -> JSONValue {
        try await client.request(
            "chat.send",
            params: [
                "sessionKey": "main", "message": .string(message), "idempotencyKey": .string(key),
                "attachments": .array(attachments),
            ])
    }

    private func item(_ name: String, _ mime: String, _ bytes: [UInt8], type: String = "file") -> JSONValue {
        [
            "type": .string(type), "mimeType": .string(mime), "fileName": .string(name),
            "content": .string(Data(bytes).base64EncodedString()),
        ]
    }

    @Test func imagesAndFilesArriveByteForByteAndHistoryOmitsTheImageBytes() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4, agent: ChatTests.fast)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let ack = try await send(
                client, key: "a-1",
                attachments: [
                    item("shot.png", "image/png", Self.png, type: "image"),
                    item("report.pdf", "application/pdf", Self.pdf),
                ])
            #expect(ack["payload"]?["status"] == "started")
            _ = try await client.terminalChat(runId: "a-1")
            let received = await gateway.receivedAttachments()
            #expect(received.map(\.bytes) == [Self.png, Self.pdf])
            #expect(received.map(\.detectedMimeType) == ["image/png", "application/pdf"])
            #expect(received.allSatisfy { $0.kept && $0.runId == "a-1" })
            let user = try #require(await gateway.history(sessionKey: "main").first)
            let parts = user["content"]?.arrayValue ?? []
            #expect(parts.first == ["type": "text", "text": "see attached"])
            let encodedLength = Data(Self.png).base64EncodedString().utf8.count
            #expect(
                parts.dropFirst().first == [
                    "type": "image", "mimeType": "image/png", "omitted": true, "bytes": .int(encodedLength),
                ])
            #expect(parts.last?["type"] == "file")
            #expect(parts.last?["fileName"] == "report.pdf")
            await client.close()
        }
    }

    @Test func historyCanLinkImagesInstead() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4, agent: ChatTests.fast, historyImages: .url)) {
            gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await send(client, key: "u-1", message: "", attachments: [item("p.png", "image/png", Self.png)])
            _ = try await client.terminalChat(runId: "u-1")
            let reply = try await client.request("chat.history", params: ["sessionKey": "main"])
            let image = reply["payload"]?["messages"]?.arrayValue?.first?["content"]?.arrayValue?.first
            #expect(image?["type"] == "image")
            #expect(image?["data"] == nil)
            #expect(image?["url"]?.stringValue?.hasPrefix("/api/chat/media/outgoing/agent%3Amain%3Amain/") == true)
            await client.close()
        }
    }

    @Test func contentIsValidatedStrictlyWithUpstreamsErrors() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4, agent: ChatTests.fast)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let cases: [(JSONValue, String)] = [
                (["fileName": "a.png", "content": "aGVsbG8"], "Error: attachment a.png: invalid base64 content"),
                (["fileName": "b.png", "content": "aGVs bG8="], "Error: attachment b.png: invalid base64 content"),
                (["type": "image", "content": 42], "Error: attachment image: content must be base64 string"),
                (["content": "aGVsbG8-"], "Error: attachment attachment-1: invalid base64 content"),
            ]
            for (index, (attachment, message)) in cases.enumerated() {
                let reply = try await send(client, key: "bad-\(index)", attachments: [attachment])
                #expect(reply["ok"] == false)
                #expect(reply["error"]?["code"] == "INVALID_REQUEST")
                #expect(reply["error"]?["message"]?.stringValue == message)
            }
            // A data URL prefix is stripped, as upstream does.
            let dataURL = "data:image/png;base64," + Data(Self.png).base64EncodedString()
            let ok = try await send(
                client, key: "d-1", attachments: [["fileName": "d.png", "content": .string(dataURL)]])
            #expect(ok["payload"]?["status"] == "started")
            #expect(await gateway.receivedAttachments().map(\.bytes) == [Self.png])
            #expect(await gateway.runCount() == 1)
            await client.close()
        }
    }

    @Test func advertisedLimitsAreEnforcedAndArchivesDropped() async throws {
        let limits = TestAttachmentLimits(maxBytes: 1000, maxImageBytes: 200)
        try await withValidatedTestGateway(.init(protocolNumber: 4, agent: ChatTests.fast, attachmentLimits: limits)) {
            gateway in
            let (client, hello) = try await HandshakeHelper().open(gateway.url)
            #expect(hello["policy"]?["attachments"] == ["maxBytes": 1000, "maxImageBytes": 200])
            let big = try await send(client, key: "l-1", attachments: [item("p.png", "image/png", Self.png)])
            #expect(big["error"]?["code"] == "INVALID_REQUEST")
            #expect(big["error"]?["message"] == "Error: attachment p.png: exceeds size limit (308 > 200 bytes)")
            let dropped = try await send(client, key: "l-2", attachments: [item("b.zip", "application/zip", Self.zip)])
            #expect(dropped["payload"]?["status"] == "started")
            #expect(await gateway.receivedAttachments().map(\.kept) == [false])
            await client.close()
        }
    }

    @Test func protocol3KeepsImagesOnly() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 3, agent: ChatTests.fast)) { gateway in
            let (client, hello) = try await HandshakeHelper().open(gateway.url)
            #expect(hello["policy"]?["attachments"] == nil)
            _ = try await send(
                client, key: "v3-1",
                attachments: [item("p.png", "image/png", Self.png), item("r.pdf", "application/pdf", Self.pdf)])
            _ = try await client.terminalChat(runId: "v3-1")
            #expect(await gateway.receivedAttachments().map(\.kept) == [true, false])
            let parts = await gateway.history(sessionKey: "main").first?["content"]?.arrayValue ?? []
            #expect(parts.compactMap { $0["type"]?.stringValue } == ["text", "image"])
            await client.close()
        }
    }
}
