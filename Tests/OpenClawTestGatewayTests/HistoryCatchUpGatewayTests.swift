import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The test gateway's summer-2026 history methods, as upstream defines them: tail pages carry an opaque
/// `deltaCursor`; `chat.history` with it answers `{kind: "delta"}` with only what was stored since, or
/// `{kind: "reset"}`; `chat.message.get` gives one message without the page's truncation.
@Suite("Test gateway: history catch-up and chat.message.get")
struct HistoryCatchUpGatewayTests {
    /// Upstream's closed `ChatHistoryDeltaResultSchema` members.
    private static let deltaMembers: Set<String> = [
        "kind", "messages", "deltaCursor", "sessionInfo", "agentsList", "inFlightRun", "metadata", "pendingInputs",
        "inputConsumptions",
    ]

    private func open(_ gateway: TestGateway) async throws -> RawGatewayClient {
        var helper = HandshakeHelper()
        helper.minProtocol = 4
        return try await helper.open(gateway.url).0
    }

    @Test func aCursorAnswersOnlyTheMessagesStoredSince() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4)) { gateway in
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "one")
            let client = try await open(gateway)
            let page = try await client.request("chat.history", params: ["sessionKey": "main"])
            let cursor = try #require(page["payload"]?["deltaCursor"]?.stringValue)
            await gateway.appendMessage(sessionKey: "main", role: "assistant", text: "two")
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "three")
            let answer = try await client.request(
                "chat.history", params: ["sessionKey": "main", "cursor": .string(cursor)])
            let payload = try #require(answer["payload"]?.objectValue)
            #expect(payload["kind"] == "delta")
            #expect(Set(payload.keys).isSubset(of: Self.deltaMembers))
            #expect(payload["sessionInfo"] != nil, "sessionInfo is required")
            let texts = payload["messages"]?.arrayValue?.compactMap { ChatMessage(json: $0)?.text }
            #expect(texts == ["two", "three"])
            let next = try #require(payload["deltaCursor"]?.stringValue)
            #expect(next != cursor)
            let nothingNew = try await client.request(
                "chat.history", params: ["sessionKey": "main", "cursor": .string(next)])
            #expect(nothingNew["payload"]?["kind"] == "delta")
            #expect(nothingNew["payload"]?["messages"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func aStaleForeignOrCrossedCursorAnswersReset() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4)) { gateway in
            await gateway.appendMessage(sessionKey: "main", role: "user", text: "one")
            await gateway.appendMessage(sessionKey: "other", role: "user", text: "elsewhere")
            let client = try await open(gateway)
            let main = try await client.request("chat.history", params: ["sessionKey": "main"])
            let cursor = try #require(main["payload"]?["deltaCursor"]?.stringValue)
            for (key, sent) in [("main", "not a cursor"), ("other", cursor)] {
                let answer = try await client.request(
                    "chat.history", params: ["sessionKey": .string(key), "cursor": .string(sent)])
                #expect(answer["payload"] == ["kind": "reset"], "\(key) \(sent)")
            }
            await gateway.appendBoundary(sessionKey: "main", .compaction(tokensBefore: 100, tokensAfter: 10))
            let crossed = try await client.request(
                "chat.history", params: ["sessionKey": "main", "cursor": .string(cursor)])
            #expect(crossed["payload"] == ["kind": "reset"], "a compaction since the cursor")
            let other = try await client.request("chat.history", params: ["sessionKey": "other", "limit": 1])
            let otherCursor = try #require(other["payload"]?["deltaCursor"]?.stringValue)
            for index in 0...200 {
                await gateway.appendMessage(sessionKey: "other", role: "user", text: "m\(index)")
            }
            let behind = try await client.request(
                "chat.history", params: ["sessionKey": "other", "cursor": .string(otherCursor)])
            #expect(behind["payload"] == ["kind": "reset"], "more than 200 events behind")
        }
    }

    @Test func fullMessageIsNotCutButThePageIs() async throws {
        // `chat.message.get` gets an `offset` it does not take, on purpose.
        let recorder = try FrameConformanceRecorder(
            protocolVersion: 4,
            invalidOnPurpose: [InvalidOnPurpose("chat.message.get", "with offset") { $0["offset"] != nil }])
        try await withValidatedTestGateway(.init(protocolNumber: 4, historyMaxChars: 10), recorder: recorder) {
            gateway in
            let long = String(repeating: "x", count: 40)
            await gateway.appendMessage(sessionKey: "main", role: "assistant", text: long)
            let client = try await open(gateway)
            let page = try await client.request("chat.history", params: ["sessionKey": "main"])
            let row = try #require(page["payload"]?["messages"]?.arrayValue?.first.flatMap(ChatMessage.init(json:)))
            #expect(row.text.hasSuffix(ChatMessage.historyTruncationMarker))
            let id = try #require(row.entry?.id)
            let full = try await client.request(
                "chat.message.get", params: ["sessionKey": "main", "messageId": .string(id)])
            #expect(full["payload"]?["ok"] == true)
            #expect(ChatMessage(json: full["payload"]?["message"])?.text == long)
            #expect(ChatMessage(json: full["payload"]?["message"])?.entry?.id == id)
            let missing = try await client.request(
                "chat.message.get", params: ["sessionKey": "main", "messageId": "no-such-id"])
            #expect(missing["payload"] == ["ok": false, "unavailableReason": "not_found"])
            let unknownField = try await client.request(
                "chat.message.get", params: ["sessionKey": "main", "messageId": .string(id), "offset": 1])
            #expect(unknownField["ok"] == false, "the params object is closed")
        }
    }

    @Test func theQuirkMakesAGatewayFromBeforeSummer2026() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4, quirks: .noHistoryCatchUp)) { gateway in
            var helper = HandshakeHelper()
            helper.minProtocol = 4
            let (client, hello) = try await helper.open(gateway.url)
            let methods = hello["features"]?["methods"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(methods.contains("chat.history"))
            #expect(!methods.contains("chat.message.get"))
            let page = try await client.request("chat.history", params: ["sessionKey": "main"])
            #expect(page["ok"] == true)
            #expect(page["payload"]?["deltaCursor"] == nil)
        }
    }
}
