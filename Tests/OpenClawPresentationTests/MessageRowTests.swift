import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawPresentation

/// Rows built through the real reducer, so the mapping is checked against the states it produces.
@Suite("Message rows")
struct MessageRowTests {
    private static let session = "agent:main:main"

    private func agent(_ seq: Int, at ts: Int, _ stream: AgentStream) -> TranscriptAction {
        .agentEvent(AgentEvent(runId: "r1", seq: seq, ts: ts, sessionKey: Self.session, stream: stream))
    }

    private func chat(
        _ state: ChatEventState, seq: Int, delta: String? = nil, error: String? = nil
    )
        -> TranscriptAction
    {
        .chatEvent(
            ChatEvent(
                runId: "r1", sessionKey: Self.session, seq: seq, state: state, deltaText: delta,
                errorMessage: error))
    }

    @Test func userMessagesShowTheirDeliveryState() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "u1", text: "hi", timestampMs: 1_000)))
        var row = try #require(transcript.entries.first.flatMap(MessageRow.init))
        #expect(row.author == .user)
        #expect(row.badge == .sending)
        #expect(row.rendersMarkdown == false)

        transcript.apply(.sendQueued(id: "u1"))
        row = try #require(transcript.entries.first.flatMap(MessageRow.init))
        #expect(row.badge == .queued)
        #expect(row.actions == [.discard])

        transcript.apply(.sendFailed(id: "u1", reason: "Not delivered within 48 h"))
        row = try #require(transcript.entries.first.flatMap(MessageRow.init))
        #expect(row.badge == .notDelivered("Not delivered within 48 h"))
        #expect(row.actions == [.retry, .discard])
        #expect(row.timestampMs == 1_000)
    }

    @Test func aRunningReplyShowsWhatTheAgentDoesAndHowLong() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "r1", text: "check the service", timestampMs: 1_000)))
        transcript.apply(agent(1, at: 1_000, .lifecycle(.start)))
        transcript.apply(agent(2, at: 1_000, .thinking(text: "I will call exec.", delta: "I will call exec.")))

        var reply = try #require(transcript.entries.last.flatMap(MessageRow.init))
        #expect(reply.author == .agent)
        #expect(reply.isStreaming)
        #expect(reply.liveActivity?.text == "thinking…")

        let args: JSONValue = ["command": "curl -s https://status.example.test/health"]
        transcript.apply(agent(3, at: 1_200, .tool(.start(name: "exec", toolCallId: "c1", args: args))))
        reply = try #require(transcript.entries.last.flatMap(MessageRow.init))
        let live = try #require(reply.liveActivity)
        #expect(live.text == "running exec: curl -s https://status.example.test/health")
        #expect(live.stepId == "c1")
        #expect(live.line(elapsedMs: 2_100) == "running exec: curl -s https://status.example.test/health  2.1 s")
        #expect(live.line(elapsedMs: 75_000) == "running exec: curl -s https://status.example.test/health  1 min 15 s")
        #expect(live.line(elapsedMs: nil) == "running exec: curl -s https://status.example.test/health")
        #expect(reply.steps.map(\.kind) == [.thinking, .tool(name: "exec")])
        #expect(reply.steps.first?.status == .succeeded)
        #expect(reply.steps.last?.status == .running)
        #expect(reply.steps.last?.duration == nil)

        transcript.apply(
            agent(4, at: 3_300, .tool(.result(name: "exec", toolCallId: "c1", isError: false, result: nil))))
        transcript.apply(chat(.delta, seq: 1, delta: "The service is **healthy**."))
        reply = try #require(transcript.entries.last.flatMap(MessageRow.init))
        #expect(reply.liveActivity == nil, "text flows: the cursor says enough")
        #expect(reply.steps.last?.duration == "2.1 s")
        #expect(reply.blocks == [.paragraph("The service is **healthy**.")])
        #expect(reply.badge == nil)
    }

    @Test func aReplyWaitingForItsFirstWordSaysSo() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.send(LocalSend(id: "r1", text: "hello", timestampMs: 1_000)))
        transcript.apply(agent(1, at: 1_000, .lifecycle(.start)))
        var reply = try #require(transcript.entries.last.flatMap(MessageRow.init))
        #expect(reply.author == .agent)
        #expect(reply.liveActivity?.text == "thinking…")
        #expect(reply.liveActivity?.stepId == nil)
        #expect(reply.liveActivity?.line(elapsedMs: 9_999) == "thinking…", "no step started: no elapsed time")

        transcript.apply(
            .chatEvent(
                ChatEvent(
                    runId: "r1", sessionKey: Self.session, seq: 1, state: .other("status"),
                    statusPhase: "preparing_context")))
        reply = try #require(transcript.entries.last.flatMap(MessageRow.init))
        #expect(reply.liveActivity?.text == "preparing context…")
    }

    @Test func stoppedAndFailedRepliesCarryABadge() throws {
        var stopped = Transcript(sessionKey: "main")
        stopped.apply(.send(LocalSend(id: "r1", text: "slow", timestampMs: 1_000)))
        stopped.apply(chat(.delta, seq: 1, delta: "word1 word2"))
        stopped.apply(
            .chatEvent(ChatEvent(runId: "r1", sessionKey: Self.session, seq: 2, state: .aborted, stopReason: "rpc")))
        let stoppedRow = try #require(stopped.entries.last.flatMap(MessageRow.init))
        #expect(stoppedRow.badge == .stopped(reason: "rpc"))
        #expect(stoppedRow.isStreaming == false)
        #expect(stoppedRow.text == "word1 word2")

        var failed = Transcript(sessionKey: "main")
        failed.apply(.send(LocalSend(id: "r1", text: "fail", timestampMs: 1_000)))
        failed.apply(chat(.delta, seq: 1, delta: "Working on it"))
        failed.apply(chat(.error, seq: 2, error: "LLM request failed"))
        let failedRow = try #require(failed.entries.last.flatMap(MessageRow.init))
        guard case .replyFailed(let reason)? = failedRow.badge else {
            Issue.record("expected a failed reply, got \(String(describing: failedRow.badge))")
            return
        }
        #expect(reason.contains("LLM request failed"))
        #expect(failedRow.actions.isEmpty)
    }

    @Test func toolResultsAndSilentRepliesAreNoBubbles() throws {
        var transcript = Transcript(sessionKey: "main")
        let page = ChatHistoryPage(
            sessionKey: "main",
            messages: [
                ChatMessage(json: ["role": "user", "content": "run it", "timestamp": 1_000]),
                ChatMessage(json: [
                    "role": "assistant", "timestamp": 1_100,
                    "content": [["type": "toolCall", "id": "c1", "name": "exec", "arguments": ["command": "ls"]]],
                ]),
                ChatMessage(json: [
                    "role": "toolResult", "toolCallId": "c1", "toolName": "exec", "timestamp": 1_500,
                    "content": [["type": "text", "text": "file.txt"]],
                ]),
                ChatMessage(json: [
                    "role": "assistant", "content": [["type": "text", "text": "Done."]], "timestamp": 1_600,
                ]),
                ChatMessage(json: ["role": "assistant", "content": [], "timestamp": 1_700]),
            ].compactMap { $0 })
        transcript.apply(.historyLoaded(page))
        #expect(transcript.entries.count == 5)
        let rows = transcript.entries.compactMap(MessageRow.init)
        #expect(rows.map(\.author) == [.user, .agent, .agent])
        #expect(rows[1].text.isEmpty)
        #expect(rows[1].steps.map(\.summary) == ["exec: ls"])
        #expect(rows[2].text == "Done.")
    }
}
