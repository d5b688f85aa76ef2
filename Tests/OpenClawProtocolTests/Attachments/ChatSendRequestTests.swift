import OpenClawProtocol
import OpenClawTestSupport
import Testing

/// A source that hands out bytes in uneven chunks, as a file read can.
private struct ChunkedBytes: AttachmentByteSource {
    let bytes: [UInt8]
    let chunk: Int

    func readChunks(_ body: (UnsafeRawBufferPointer) throws(AttachmentError) -> Void) throws(AttachmentError) -> Int {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            var failure: AttachmentError?
            bytes[start..<end].withUnsafeBytes { part in
                do throws(AttachmentError) { try body(part) } catch { failure = error }
            }
            if let failure { throw failure }
            start = end
        }
        return bytes.count
    }
}

@Suite("chat.send frames with attachments")
struct ChatSendRequestTests {
    private func frame(_ request: ChatSendRequest, id: String = "req-1") throws -> [UInt8] {
        let size = request.frameByteCount(id: id)
        var bytes = [UInt8](repeating: 0, count: size)
        try bytes.withUnsafeMutableBytes { buffer in try request.writeFrame(id: id, into: buffer) }
        return bytes
    }

    @Test func theFrameIsExactlyTheSerialisedRequest() throws {
        let image = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let pdf = Array("%PDF-1.4\nhello \"quoted\" ✓\n".utf8)
        let params = ChatSendParams(
            sessionKey: "main", message: "look \"here\"\n", idempotencyKey: "k1", thinking: "low")
        for chunk in [1, 2, 3, 4, 7, 4096] {
            let request = ChatSendRequest(
                params: params,
                attachments: [
                    OutgoingAttachment(
                        fileName: "pic \"1\".png", mediaType: MediaType(mimeType: "image/png"), size: image.count,
                        source: ChunkedBytes(bytes: image, chunk: chunk)),
                    OutgoingAttachment(
                        fileName: "doc.pdf", mediaType: MediaType(mimeType: "application/pdf"), size: pdf.count,
                        source: ChunkedBytes(bytes: pdf, chunk: chunk)),
                ])
            var expectedMembers = params.json.objectValue ?? [:]
            expectedMembers["attachments"] = [
                [
                    "type": "image", "mimeType": "image/png", "fileName": "pic \"1\".png",
                    "content": .string(Base64.encode(image)),
                ],
                [
                    "type": "file", "mimeType": "application/pdf", "fileName": "doc.pdf",
                    "content": .string(Base64.encode(pdf)),
                ],
            ]
            let expected = JSONSerializer.bytes(
                RequestFrame(id: "req-1", method: "chat.send", params: .object(expectedMembers)).json)
            #expect(try frame(request) == expected, "chunk \(chunk)")
        }
    }

    @Test func paramsMatchTheSharedSchemasOfBothVersions() throws {
        let bytes = Array("hello".utf8)
        let request = ChatSendRequest(
            params: ChatSendParams(sessionKey: "main", message: "", idempotencyKey: "k"),
            attachments: [
                OutgoingAttachment(
                    fileName: "a.txt", mediaType: .plainText, size: bytes.count, source: InMemoryAttachmentBytes(bytes))
            ])
        let parsed = try JSONParser().parse(try frame(request))
        for file in SharedSchemas.allFileNames {
            let validator = JSONSchemaValidator(document: try SharedSchemas.load(file))
            #expect(validator.validate(parsed["params"] ?? .null, definition: "ChatSendParams") == [], "\(file)")
        }
        #expect(request.summary["attachments"]?.arrayValue?.first?["content"] == "<5 bytes, base64>")
    }

    @Test func aSourceThatChangedSizeFailsInsteadOfWritingAWrongFrame() {
        let bytes = Array("hello world".utf8)
        for size in [bytes.count - 1, bytes.count + 1] {
            let request = ChatSendRequest(
                params: ChatSendParams(sessionKey: "main", message: "", idempotencyKey: "k"),
                attachments: [
                    OutgoingAttachment(
                        fileName: "a.txt", mediaType: .plainText, size: size, source: InMemoryAttachmentBytes(bytes))
                ])
            #expect(throws: AttachmentError.unreadable(fileName: "a.txt", reason: "it changed while being sent")) {
                _ = try frame(request)
            }
        }
    }
}
