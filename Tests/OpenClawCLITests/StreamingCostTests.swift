import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawCLI

/// Counts the reply bytes a renderer reads: the work of following a reply, measured without a clock.
private final class ReadCounter {
    var bytes = 0
}

private struct CountingReply: StreamedReplyText {
    let entry: TranscriptEntry
    let counter: ReadCounter

    var id: String { entry.id }
    var textRevision: Int { entry.textRevision }
    var textUTF8Count: Int { entry.textUTF8Count }
    var text: String {
        counter.bytes += entry.textUTF8Count
        return entry.text
    }

    func text(fromUTF8Offset offset: Int) -> String {
        let piece = entry.text(fromUTF8Offset: offset)
        counter.bytes += piece.utf8.count
        return piece
    }
}

@Suite("Following a reply costs only its new text")
struct StreamingCostTests {
    static func piece(_ index: Int) -> String { "line \(index): some words, ünïcode\n" }

    enum Dialect: CaseIterable { case v3Cumulative, v4Deltas }

    /// Streams `count` pieces into a transcript the way `dialect` sends them, updating the tracker after
    /// every event; returns the bytes read, what was printed, and the final text.
    static func follow(_ count: Int, _ dialect: Dialect) throws -> (read: Int, printed: String, text: String) {
        var transcript = Transcript(sessionKey: "main")
        var tracker = ReplyTextTracker()
        let counter = ReadCounter()
        var printed = ""
        var text = ""
        for index in 0..<count {
            text += piece(index)
            let event =
                switch dialect {
                case .v3Cumulative:
                    ChatEvent(
                        runId: "r", sessionKey: "main", seq: index + 1, state: .delta,
                        message: ChatMessage(role: .assistant, content: [.text(text)]))
                case .v4Deltas:
                    ChatEvent(runId: "r", sessionKey: "main", seq: index + 1, state: .delta, deltaText: piece(index))
                }
            transcript.apply(.chatEvent(event))
            let reply = try #require(transcript.entries.last)
            switch tracker.update(CountingReply(entry: reply, counter: counter)) {
            case .append(let chunk)?: printed += chunk
            case .rewrite?: Issue.record("an extended text must not be printed again")
            case nil: Issue.record("every event brought new text")
            }
        }
        let final = ChatMessage(role: .assistant, content: [.text(text)])
        transcript.apply(
            .chatEvent(ChatEvent(runId: "r", sessionKey: "main", seq: count + 1, state: .final, message: final)))
        let reply = try #require(transcript.entries.last)
        #expect(tracker.update(CountingReply(entry: reply, counter: counter)) == nil)
        return (counter.bytes, printed, text)
    }

    @Test(arguments: Dialect.allCases)
    func everyByteIsReadOnceWhateverTheLength(dialect: Dialect) throws {
        for count in [100, 400, 1600] {
            let (read, printed, text) = try Self.follow(count, dialect)
            #expect(printed == text)
            // Quadratic re-reading would read about count/2 times the text; linear reads it once.
            #expect(read == text.utf8.count, "\(count) events read \(read) bytes of a \(text.utf8.count)-byte reply")
        }
    }

    @Test func aRewrittenReplyIsReadWholeOnceAndPrintedAgain() throws {
        var transcript = Transcript(sessionKey: "main")
        var tracker = ReplyTextTracker()
        let counter = ReadCounter()
        transcript.apply(
            .chatEvent(ChatEvent(runId: "r", sessionKey: "main", seq: 1, state: .delta, deltaText: "draft one")))
        #expect(
            tracker.update(CountingReply(entry: try #require(transcript.entries.last), counter: counter))
                == .append("draft one"))
        transcript.apply(
            .chatEvent(
                ChatEvent(runId: "r", sessionKey: "main", seq: 2, state: .delta, deltaText: "better", replace: true)))
        let change = tracker.update(CountingReply(entry: try #require(transcript.entries.last), counter: counter))
        #expect(change == .rewrite("better"))
        #expect(counter.bytes == "draft one".utf8.count + "better".utf8.count)
        transcript.apply(
            .chatEvent(ChatEvent(runId: "r", sessionKey: "main", seq: 3, state: .delta, deltaText: " text")))
        #expect(
            tracker.update(CountingReply(entry: try #require(transcript.entries.last), counter: counter))
                == .append(" text"))
        #expect(tracker.endsMidLine)
    }
}
