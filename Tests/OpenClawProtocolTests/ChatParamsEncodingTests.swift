import Foundation
import OpenClawProtocol
import OpenClawTestSupport
import Testing

@Suite("Chat params encoding")
struct ChatParamsEncodingTests {
    private func keys(_ json: JSONValue) -> Set<String> { Set(json.objectValue.map { Array($0.keys) } ?? []) }

    @Test func chatSendWithOnlyRequiredFields() {
        let params = ChatSendParams(sessionKey: "main", message: "hi", idempotencyKey: "run-1")
        #expect(keys(params.json) == ["sessionKey", "message", "idempotencyKey"])
        #expect(params.json["message"] == "hi")
        #expect(ChatSendParams.method == "chat.send")
    }

    @Test func chatSendWithEveryField() {
        let params = ChatSendParams(
            sessionKey: "main", message: "hi", idempotencyKey: "run-1", thinking: "low", timeoutMs: 30_000
        )
        #expect(keys(params.json) == ["sessionKey", "message", "idempotencyKey", "thinking", "timeoutMs"])
        #expect(params.json["timeoutMs"] == 30_000)
    }

    @Test func chatSendDropsBlankThinkingAndNegativeTimeout() {
        let params = ChatSendParams(
            sessionKey: "main", message: "hi", idempotencyKey: "k", thinking: " ", timeoutMs: -1)
        #expect(keys(params.json) == ["sessionKey", "message", "idempotencyKey"])
    }

    @Test func chatHistoryClampsLimitAndDropsInvalid() {
        #expect(keys(ChatHistoryParams(sessionKey: "main").json) == ["sessionKey"])
        #expect(ChatHistoryParams(sessionKey: "main", limit: 5000).json["limit"] == 1000)
        #expect(keys(ChatHistoryParams(sessionKey: "main", limit: 0, maxChars: 0).json) == ["sessionKey"])
        #expect(
            keys(ChatHistoryParams(sessionKey: "main", limit: 50, maxChars: 4000).json)
                == ["sessionKey", "limit", "maxChars"])
    }

    @Test func chatAbortWithAndWithoutRun() {
        #expect(keys(ChatAbortParams(sessionKey: "main").json) == ["sessionKey"])
        #expect(ChatAbortParams(sessionKey: "main", runId: "r").json == ["sessionKey": "main", "runId": "r"])
    }

    @Test func sessionsListDefaultsLikeIOS() {
        #expect(SessionsListParams().json == ["includeGlobal": true, "includeUnknown": false])
        let full = SessionsListParams(
            limit: 20, includeGlobal: nil, includeUnknown: nil, includeDerivedTitles: true, includeLastMessage: true,
            search: "x"
        )
        #expect(keys(full.json) == ["limit", "includeDerivedTitles", "includeLastMessage", "search"])
    }

    @Test func modelsListIsEmptyObject() {
        #expect(ModelsListParams().json == .object([:]))
        #expect(JSONSerializer.string(ModelsListParams().json) == "{}")
    }

    @Test func agentIdentityOptionalFields() {
        #expect(AgentIdentityParams().json == .object([:]))
        #expect(AgentIdentityParams(agentId: "main", sessionKey: "").json == ["agentId": "main"])
        #expect(AgentIdentityParams.method == "agent.identity.get")
    }

    @Test func requestFrameCarriesMethodAndParams() {
        let frame = ChatAbortParams(sessionKey: "main").requestFrame(id: "7")
        #expect(
            FrameCodec.text(frame) == #"{"id":"7","method":"chat.abort","params":{"sessionKey":"main"},"type":"req"}"#)
    }

    // MARK: Against the shared closed schemas

    private static let fullestParams: [(String, JSONValue)] = [
        (
            "ChatSendParams",
            ChatSendParams(sessionKey: "m", message: "x", idempotencyKey: "k", thinking: "low", timeoutMs: 1).json
        ),
        ("ChatHistoryParams", ChatHistoryParams(sessionKey: "m", limit: 1, maxChars: 1).json),
        ("ChatAbortParams", ChatAbortParams(sessionKey: "m", runId: "r").json),
        (
            "SessionsListParams",
            SessionsListParams(
                limit: 1, includeDerivedTitles: true, includeLastMessage: true, search: "s"
            ).json
        ),
        ("ModelsListParams", ModelsListParams().json),
        ("SessionsPatchParams", SessionModelPatchParams(key: "k", model: "m").json),
        ("AgentIdentityParams", AgentIdentityParams(agentId: "a", sessionKey: "s").json),
    ]

    /// The v4 core subset defines only the `chat.*` params; the rest are checked against v3 alone.
    private static let v4Definitions: Set<String> = ["ChatSendParams", "ChatHistoryParams", "ChatAbortParams"]

    @Test(arguments: [SharedSchemas.v3FileName, SharedSchemas.v4FileName])
    func paramsUseOnlySchemaFieldsAndAllRequiredOnes(file: String) throws {
        let inFile = Self.fullestParams.filter { file != SharedSchemas.v4FileName || Self.v4Definitions.contains($0.0) }
        for (name, json) in inFile {
            let definition = try SharedSchemas.definition(name, in: file)
            let allowed = Set(definition["properties"]?.objectValue.map { Array($0.keys) } ?? [])
            let required = Set(definition["required"]?.stringArrayValue ?? [])
            let sent = keys(json)
            #expect(sent.isSubset(of: allowed), "\(name) sends \(sent.subtracting(allowed)) not in \(file)")
            #expect(required.isSubset(of: sent), "\(name) lacks \(required.subtracting(sent)) required by \(file)")
        }
    }
}
