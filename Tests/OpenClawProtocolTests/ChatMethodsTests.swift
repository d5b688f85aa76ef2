import OpenClawProtocol
import Testing

/// The chat methods as typed endpoints: each names its answer and who may call it, and `chat.history`
/// is two endpoints because it answers a page or a catch-up depending on what was asked.
@Suite("Chat methods as typed endpoints")
struct ChatMethodsTests {
    @Test func aCatchUpIsItsOwnEndpointOfChatHistory() throws {
        let catchUp = ChatHistoryCatchUpParams(sessionKey: "main", cursor: "c-17", maxChars: 900_000)
        #expect(ChatHistoryCatchUpParams.method == ChatHistoryParams.method)
        #expect(catchUp.json == ["sessionKey": "main", "cursor": "c-17", "maxChars": 500_000], "no limit, capped")
        let reset = try #require(catchUp.response(from: ["kind": "reset"]))
        #expect(reset == ChatHistoryCatchUp(json: ["kind": "reset"]))
        #expect(catchUp.response(from: ["messages": []]) == nil, "a page is not a catch-up")
        let page = ChatHistoryParams(sessionKey: "main", limit: 5000)
        #expect(page.json == ["sessionKey": "main", "limit": 1000])
        #expect(page.response(from: ["messages": []])?.sessionKey == "main", "read for the key asked about")
    }

    @Test func eachMethodSaysWhoMayCallIt() {
        #expect(ChatSendParams.access == .operatorScope(OperatorScope.write))
        #expect(ChatAbortParams.access == .operatorScope(OperatorScope.write))
        #expect(ChatHistoryParams.access == .operatorScope(OperatorScope.read))
        #expect(SessionResetParams.access == .operatorScope(OperatorScope.admin))
        #expect(SessionsListParams.access == .operatorScope(OperatorScope.read))
        #expect(SessionResetParams(key: "main").response(from: .string("ok")) == nil, "not an object: no answer")
        let send = ChatSendParams(sessionKey: "main", message: "hi", idempotencyKey: "k1")
        #expect(send.response(from: ["runId": "k1", "status": "started"]) != nil)
        #expect(send.response(from: .array([])) == nil)
    }
}
