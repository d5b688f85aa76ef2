import Foundation
import OpenClawProtocol
import Testing

@Suite("artifacts.download and image artifact blocks")
struct ArtifactsDownloadTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

    @Test func paramsCarryOnlyTheSchemasFields() {
        let params = ArtifactsDownloadParams(sessionKey: "main", artifactId: "img_1")
        #expect(params.json == ["sessionKey": "main", "artifactId": "img_1"])
        #expect(ArtifactsDownloadParams(sessionKey: "main", artifactId: "a", agentId: "").json["agentId"] == nil)
        #expect(ArtifactsDownloadParams.method == "artifacts.download")
    }

    @Test func aURLAnswerAndAnInlineAnswerDecode() throws {
        let url = try #require(
            ArtifactsDownloadResult(
                json: try parse(
                    #"{"artifact":{"id":"img_1","type":"image","title":"t","mimeType":"image/png","sizeBytes":5,"download":{"mode":"url"}},"url":"/api/chat/media/outgoing/img_1?ticket=x","expiresAt":1700000000000}"#
                )))
        #expect(url.payload == .url("/api/chat/media/outgoing/img_1?ticket=x"))
        #expect(url.sizeBytes == 5)
        #expect(url.expiresAtMs == 1_700_000_000_000)
        let inline = try #require(
            ArtifactsDownloadResult(
                json: try parse(
                    #"{"artifact":{"id":"img_2","type":"image","title":"t","download":{"mode":"bytes"}},"encoding":"base64","data":"iVBO"}"#
                )))
        #expect(inline.payload == .inline(base64: "iVBO"))
        #expect(inline.mimeType == nil)
    }

    @Test func anAnswerWithNeitherBytesNorURLIsNoDownload() throws {
        #expect(
            ArtifactsDownloadResult(
                json: try parse(
                    #"{"artifact":{"id":"a","type":"image","title":"t","download":{"mode":"unsupported"}}}"#))
                == nil)
        #expect(ArtifactsDownloadResult(json: try parse(#"{"url":"/x"}"#)) == nil)
    }

    @Test func anImageBlockKeepsItsArtifactIdThroughTheStore() throws {
        let block = try parse(
            #"{"type":"image","artifactId":"img_9","url":"/api/chat/media/outgoing/img_9","mimeType":"image/png","sizeBytes":2048,"alt":"a cat"}"#
        )
        guard case .image(let part)? = ChatContentPart(json: block) else {
            Issue.record("not an image part")
            return
        }
        #expect(part.artifactId == "img_9")
        #expect(part.bytes == 2048)
        let message = ChatMessage(role: .assistant, content: [.image(part)])
        let again = try #require(ChatMessage(json: message.json))
        guard case .image(let stored)? = again.content.first else {
            Issue.record("image lost in the round trip")
            return
        }
        #expect(stored.artifactId == "img_9")
    }
}
