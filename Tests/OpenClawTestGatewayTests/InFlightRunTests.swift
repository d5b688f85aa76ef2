import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// v4 `chat.history` reports the run still streaming (`inFlightRun {runId, text}`), so a client that
/// reconnects mid-run can show the reply so far; v3 has no such field.
@Suite("Test gateway chat.history inFlightRun")
struct InFlightRunTests {
    /// 70 chunks 150 ms apart: the run outlasts a history request on a loaded CI machine by seconds (a
    /// 30 ms pace, two seconds in all, once ended before the page was built); every test aborts it.
    static let slow = ScriptedAgent(chunkSize: 6, chunkDelayMs: 1, slowChunkDelayMs: 150, toolDurationMs: 5)

    @Test func v4HistoryCarriesTheStreamingRunWithTheTextSentSoFar() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 4, agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            let idle = try await client.request("chat.history", params: ["sessionKey": "main"], id: "h-idle")
            #expect(idle["payload"]?["inFlightRun"] == nil)

            _ = try await client.chatSend("slow please", key: "slow-1")
            // A few deltas in (the predicate runs under the inbox's lock: it looks at one frame only).
            _ = try await client.anyFrame("the third word") { frame in
                frame["event"] == "chat" && frame["payload"]?["runId"] == "slow-1"
                    && (frame["payload"]?["deltaText"]?.stringValue?.contains("word3") ?? false)
            }
            let page = try await client.request("chat.history", params: ["sessionKey": "main"], id: "h-live")
            let flight = try #require(page["payload"]?["inFlightRun"])
            #expect(flight["runId"] == "slow-1")
            let text = try #require(flight["text"]?.stringValue)

            // Frames reach the socket in the gateway's order: the deltas before the answer are what had
            // been streamed when the page was built; the page's text is the run's buffer, which may be
            // ahead of them by what the delta throttle held back.
            let frames = client.frames
            let answer = try #require(frames.firstIndex { $0["id"] == "h-live" })
            let streamed = frames[..<answer]
                .filter { $0["event"] == "chat" && $0["payload"]?["runId"] == "slow-1" }
                .compactMap { $0["payload"]?["deltaText"]?.stringValue }
                .joined()
            #expect(text.hasPrefix(streamed) && !streamed.isEmpty)
            #expect(text.hasPrefix("word1 "))
            // The reply is not in the messages yet: only the user's message is stored.
            #expect(page["payload"]?["messages"]?.arrayValue?.compactMap { $0["role"]?.stringValue } == ["user"])

            _ = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "slow-1"])
            _ = try await client.terminalChat(runId: "slow-1")
            let after = try await client.request("chat.history", params: ["sessionKey": "main"], id: "h-after")
            #expect(after["payload"]?["inFlightRun"] == nil)
            await client.close()
        }
    }

    @Test func anotherSessionsRunIsNotInFlightHere() async throws {
        // Slower still: the run must outlast two history requests on a loaded machine (it is aborted).
        let slower = ScriptedAgent(chunkSize: 6, slowChunkDelayMs: 150)
        try await withValidatedTestGateway(.init(protocolNumber: 4, agent: slower)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("slow please", key: "elsewhere", sessionKey: "other")
            _ = try await client.anyFrame("a delta") { $0["event"] == "chat" && $0["payload"]?["state"] == "delta" }
            let main = try await client.request("chat.history", params: ["sessionKey": "main"])
            #expect(main["payload"]?["inFlightRun"] == nil)
            let other = try await client.request("chat.history", params: ["sessionKey": "other"])
            #expect(other["payload"]?["inFlightRun"]?["runId"] == "elsewhere")
            _ = try await client.request("chat.abort", params: ["sessionKey": "other", "runId": "elsewhere"])
            await client.close()
        }
    }

    @Test func v3HistoryNeverHasIt() async throws {
        try await withValidatedTestGateway(.init(protocolNumber: 3, agent: Self.slow)) { gateway in
            let (client, _) = try await HandshakeHelper().open(gateway.url)
            _ = try await client.chatSend("slow please", key: "slow-3")
            _ = try await client.anyFrame("a delta") { $0["event"] == "chat" && $0["payload"]?["state"] == "delta" }
            let page = try await client.request("chat.history", params: ["sessionKey": "main"])
            #expect(page["payload"]?["messages"] != nil)
            #expect(page["payload"]?["inFlightRun"] == nil)
            _ = try await client.request("chat.abort", params: ["sessionKey": "main", "runId": "slow-3"])
            await client.close()
        }
    }
}
