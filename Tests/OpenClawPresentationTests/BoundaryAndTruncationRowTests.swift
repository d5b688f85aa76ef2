import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawPresentation

/// History's compaction and reset rows become typed dividers, and a row history cut short offers
/// "Show all" with the number `/expand` takes — read through the real reducer.
@Suite("Message rows: dividers and shortened messages")
struct BoundaryAndTruncationRowTests {
    private func rows(_ messages: [ChatMessage]) -> [MessageRow] {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(.historyLoaded(ChatHistoryPage(sessionKey: "main", messages: messages)))
        return MessageRow.rows(for: transcript.entries)
    }

    @Test func compactionAndResetRowsAreDividers() {
        let shown = rows([
            ChatMessage(role: .user, content: [.text("before")], entry: .init(id: "u", seq: 1)),
            ChatMessage(
                role: .system, content: [.text("Compaction")],
                entry: .init(id: "c", seq: 2, kind: "compaction", tokensBefore: 9000, tokensAfter: 1200)),
            ChatMessage(role: .system, content: [.text("Reset")], entry: .init(id: "r", seq: 3, kind: "reset")),
        ])
        #expect(shown.map(\.boundary) == [nil, .compaction(tokensBefore: 9000, tokensAfter: 1200), .reset])
        #expect(shown.map(\.id) == ["u", "c", "r"], "rows are keyed by __openclaw.id")
        #expect(shown[1].boundary?.text == "Context compacted (9,000 → 1,200 tokens)")
        #expect(TranscriptBoundary.compaction(tokensBefore: nil, tokensAfter: nil).text == "Context compacted")
        #expect(shown[2].boundary?.text == "Session reset")
    }

    @Test func aTextHistoryCutOffersShowAllWithItsNumber() {
        let cut = "start of a long answer" + ChatMessage.historyTruncationMarker
        let shown = rows([
            ChatMessage(role: .assistant, content: [.text(cut)], entry: .init(id: "a", seq: 7)),
            ChatMessage(role: .assistant, content: [.text("short")], entry: .init(id: "b", seq: 8)),
            ChatMessage(
                role: .assistant, content: [.text("[chat.history omitted: message too large]")],
                entry: .init(id: "c", seq: 9, truncated: true)),
            ChatMessage(role: .assistant, content: [.text("é🙂" + cut)], entry: .init(id: "d", seq: 10)),
            ChatMessage(role: .assistant, content: [.text("..)")], entry: .init(id: "e", seq: 11)),
            ChatMessage(
                role: .assistant, content: [.text(String(ChatMessage.historyTruncationMarker.dropLast()) + "🙂")],
                entry: .init(id: "f", seq: 12)),
        ])
        #expect(shown.map(\.isTruncated) == [true, false, true, true, false, false])
        #expect(shown[0].actions == [.showAll])
        #expect(shown[1].actions == [])
        #expect(shown[0].expandNumber == 7)
        #expect(MessageRow.Action.showAll.title == "Show all")
    }
}
