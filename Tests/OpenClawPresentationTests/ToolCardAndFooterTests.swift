import OpenClawProtocol
import Testing

@testable import OpenClawChat
@testable import OpenClawPresentation

/// `/tools`' expanded steps and the line under a reply: the same words in the terminal and the app.
@Suite("Tool cards and reply footers")
struct ToolCardAndFooterTests {
    /// A transcript read from one history page.
    private func transcript(_ messages: [JSONValue]) -> Transcript {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(
            .historyLoaded(ChatHistoryPage(sessionKey: "main", messages: messages.compactMap(ChatMessage.init(json:)))))
        return transcript
    }

    @Test func aCardShowsTheArgumentsTellingOnesFirstAndTheStartOfTheResult() throws {
        let output = (1...30).map { "line \($0)" }.joined(separator: "\n") + "\n\n"
        let transcript = transcript([
            ["role": "user", "content": "list it", "timestamp": 1_000],
            [
                "role": "assistant", "timestamp": 1_100,
                "content": [
                    [
                        "type": "toolCall", "id": "c1", "name": "exec",
                        "arguments": ["timeout": 30, "command": "ls -la\n  /tmp", "cwd": "/home/me"],
                    ]
                ],
            ],
            [
                "role": "toolResult", "toolCallId": "c1", "toolName": "exec", "timestamp": 1_500,
                "content": [["type": "text", "text": .string(output)]],
            ],
        ])
        let step = try #require(MessageRow.rows(for: transcript.entries).last?.steps.first)
        let card = try #require(step.card)
        #expect(card.argumentLines == ["command: ls -la /tmp", "cwd: /home/me", "timeout: 30"])
        #expect(card.hasResult)
        #expect(card.resultLines.count == ToolCard.resultLineLimit)
        #expect(card.resultLines.first == "line 1")
        // The trailing blank lines are not counted as hidden output.
        #expect(card.hiddenResultLines == 18)
        #expect(card.moreLinesNote == "… 18 more lines")
        #expect(card.resultNote == nil, "the lines are the result")
    }

    @Test func windowsLineBreaksSplitTheResultToo() {
        let step = ActivityStep(
            id: "c", kind: .tool(name: "exec"), status: .succeeded, result: "C:\\> dir\r\nfile.txt\r\nnotes.md\r\n")
        #expect(ToolCard(step).resultLines == ["C:\\> dir", "file.txt", "notes.md"])
    }

    @Test func aStepWithoutAResultSaysSoAndLongLinesAreCut() {
        let long = String(repeating: "x", count: 500)
        let step = ActivityStep(
            id: "c", kind: .tool(name: "read"), status: .succeeded, arguments: ["path": .string(long)])
        let card = ToolCard(step)
        #expect(!card.hasResult)
        #expect(card.resultNote == "no result: the gateway sends results for verbose sessions only")
        #expect(card.resultLines.isEmpty && card.moreLinesNote == nil)
        let empty = ToolCard(ActivityStep(id: "e", kind: .tool(name: "exec"), status: .succeeded, result: "\n"))
        #expect(empty.hasResult && empty.resultNote == "empty result")
        #expect(card.argumentLines.count == 1)
        #expect(card.argumentLines[0].count == ToolCard.lineCharacterLimit)
        #expect(card.argumentLines[0].hasSuffix("…"))
        // Thinking has no card.
        #expect(ActivityRow(ActivityStep(id: "t", kind: .thinking, status: .succeeded)).card == nil)
    }

    @Test func theFooterNamesModelThinkingTokensAndCost() throws {
        let transcript = transcript([
            ["role": "user", "content": "hi", "timestamp": 1_000],
            [
                "role": "assistant", "content": [["type": "text", "text": "Hello."]], "timestamp": 1_100,
                "provider": "anthropic", "model": "claude-sonnet-4-5",
                "usage": ["input": 12_900, "output": 40, "totalTokens": 12_940, "cost": ["total": 0.0031]],
            ],
        ])
        let reply = try #require(transcript.entries.last)
        let footer = try #require(ReplyFooter(reply: reply, thinkingLevel: "low"))
        #expect(footer.text == "claude-sonnet-4-5 · thinking low · 12,940 tokens (12,900 in, 40 out) · $0.0031")
        // The app's bubble shows it without the thinking level (the terminal adds what it sent).
        #expect(MessageRow(reply)?.footer?.text == "claude-sonnet-4-5 · 12,940 tokens (12,900 in, 40 out) · $0.0031")
        #expect(MessageRow(transcript.entries[0])?.footer == nil)
    }

    @Test func gatewayWrittenMessagesAndSilentGatewaysGetNoFooter() throws {
        let transcript = transcript([
            ["role": "user", "content": "/status", "timestamp": 1_000],
            [
                "role": "assistant", "content": [["type": "text", "text": "Status: ok"]], "timestamp": 1_100,
                "provider": "openclaw", "model": "gateway-injected",
                "usage": ["input": 0, "output": 0, "totalTokens": 0],
            ],
            ["role": "assistant", "content": [["type": "text", "text": "A third-party reply."]], "timestamp": 1_200],
        ])
        #expect(ReplyFooter(reply: transcript.entries[1], thinkingLevel: "high") == nil)
        #expect(ReplyFooter(reply: transcript.entries[2], thinkingLevel: "high") == nil)
        #expect(ReplyFooter(reply: transcript.entries[0], thinkingLevel: nil) == nil)
        #expect(ReplyFooter.grouped(1_234_567) == "1,234,567")
        #expect(ReplyFooter.grouped(999) == "999")
    }
}
