import OpenClawProtocol
import Testing

@Suite("Chat response decoding")
struct ChatResponseDecodingTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

    @Test(arguments: [
        ("started", ChatSendStatus.started), ("in_flight", .inFlight), ("ok", .ok), ("error", .error),
        ("queued", .other("queued")),
    ])
    func sendAckStatuses(wire: String, status: ChatSendStatus) throws {
        let ack = try #require(ChatSendAck(json: ["runId": "r1", "status": .string(wire)]))
        #expect(ack.runId == "r1")
        #expect(ack.status == status)
        #expect(status.wireValue == wire)
    }

    @Test func sendAckErrorSummaryAndStopCommandAnswer() throws {
        let failed = try #require(ChatSendAck(json: ["runId": "r1", "status": "error", "summary": "boom"]))
        #expect(failed.summary == "boom")
        let stop: JSONValue = ["ok": true, "aborted": true, "runIds": ["r0"]]
        #expect(ChatSendAck(json: stop) == nil)
        #expect(ChatAbortResult(json: stop) == ChatAbortResult(ok: true, aborted: true, runIds: ["r0"]))
    }

    @Test func abortResult() throws {
        #expect(
            ChatAbortResult(json: ["ok": true, "aborted": false, "runIds": []])
                == ChatAbortResult(ok: true, aborted: false, runIds: []))
        #expect(ChatAbortResult(json: ["ok": true]) == nil)
    }

    @Test func historyPageV3() throws {
        let page = try #require(
            ChatHistoryPage(
                json: try parse(
                    #"""
                    {"sessionKey":"main","sessionId":"7f3e","thinkingLevel":"low","verboseLevel":"off",
                     "messages":[{"role":"user","content":"hi","timestamp":1737264000000,"__openclaw":{"id":"a1",
                      "seq":1}},
                                 "junk",
                                 {"role":"assistant","content":[{"type":"text","text":"Hello!"}],
                                  "timestamp":1737264001500,"__openclaw":{"id":"a2","seq":2}}]}
                    """#
                )))
        #expect(page.sessionKey == "main")
        #expect(page.sessionId == "7f3e")
        #expect(page.thinkingLevel == "low")
        #expect(page.messages.map(\.text) == ["hi", "Hello!"])
        #expect(page.hasMore == nil && page.nextOffset == nil && page.inFlightRun == nil)
    }

    @Test func historyPageV4Additions() throws {
        let page = try #require(
            ChatHistoryPage(
                json: try parse(
                    #"""
                    {"sessionKey":"main","messages":[],"hasMore":true,"nextOffset":200,"inFlightRun":{"runId":"r7",
                     "text":"Working on"},"sessionInfo":{"hasActiveRun":true}}
                    """#
                )))
        #expect(page.hasMore == true)
        #expect(page.nextOffset == 200)
        #expect(page.inFlightRun == InFlightRun(runId: "r7", text: "Working on"))
        #expect(ChatHistoryPage(json: ["messages": []]) == nil)
    }

    @Test func sessionsList() throws {
        let result = try #require(
            SessionsListResult(
                json: try parse(
                    #"""
                    {"ts":1,"path":"/x","count":2,"defaults":{"modelProvider":"anthropic","model":"claude",
                     "contextTokens":200000},
                     "sessions":[{"key":"agent:main:main","kind":"direct","label":"Main","updatedAt":1737264000000,
                      "sessionId":"s1",
                                  "model":"claude","status":"running","derivedTitle":"Weather",
                                   "lastMessagePreview":"It is 21","totalTokens":940},
                                 {"kind":"group"},
                                 {"key":"g","kind":"channel-thing","updatedAt":null}]}
                    """#
                )))
        #expect(result.sessions.count == 2)
        #expect(
            result.defaults == SessionListDefaults(modelProvider: "anthropic", model: "claude", contextTokens: 200_000))
        let main = result.sessions[0]
        #expect(main.key == "agent:main:main" && main.kind == .direct && main.title == "Main")
        #expect(main.status == .running && main.updatedAt == 1_737_264_000_000 && main.sessionId == "s1")
        #expect(main.derivedTitle == "Weather" && main.lastMessagePreview == "It is 21" && main.totalTokens == 940)
        #expect(result.sessions[1].kind == .other("channel-thing"))
        #expect(result.sessions[1].updatedAt == nil)
        #expect(result.sessions[1].title == "g")
    }

    @Test func modelsList() throws {
        let result = try #require(
            ModelsListResult(
                json: try parse(
                    #"""
                    {"models":[{"id":"claude","name":"Claude","provider":"anthropic","contextWindow":200000,
                     "reasoning":true},{"name":"no id"},{"id":"gpt","provider":"openai"}]}
                    """#
                )))
        #expect(
            result.models == [
                ModelChoice(
                    id: "claude", name: "Claude", provider: "anthropic", contextWindow: 200_000, reasoning: true),
                ModelChoice(id: "gpt", name: "gpt", provider: "openai"),
            ])
    }

    @Test func agentIdentity() throws {
        #expect(
            AgentIdentity(json: ["agentId": "main", "name": "Claw", "emoji": "🦞", "avatar": ""])
                == AgentIdentity(agentId: "main", name: "Claw", avatar: nil, emoji: "🦞"))
        #expect(AgentIdentity(json: .array([])) == nil)
    }
}
