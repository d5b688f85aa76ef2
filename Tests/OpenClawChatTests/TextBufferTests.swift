import OpenClawProtocol
import Testing

@testable import OpenClawChat

@Suite("Append-only text buffer")
struct TextBufferTests {
    @Test func appendsWhileACopyIsAliveWithoutCopyingTheText() {
        var buffer = TextBuffer("Hello")
        let snapshot = buffer
        buffer.append(", world")
        #expect(buffer.sharesStorage(with: snapshot))
        #expect(buffer.text == "Hello, world")
        #expect(snapshot.text == "Hello")
        #expect(buffer.utf8Count == 12 && snapshot.utf8Count == 5)
    }

    @Test func aCopyThatDivergesGetsItsOwnStorage() {
        var buffer = TextBuffer("ab")
        var other = buffer
        buffer.append("c")
        other.append("X")
        #expect(!other.sharesStorage(with: buffer))
        #expect(buffer.text == "abc")
        #expect(other.text == "abX")
        #expect(buffer != other)
    }

    @Test func splitsInsideAGraphemeSurviveExactly() {
        var buffer = TextBuffer("e")
        let before = buffer
        buffer.append("\u{301}")
        #expect(buffer.text == "e\u{301}")
        #expect(before.text == "e")
        #expect(before.utf8Count == 1)
        #expect(buffer.prefix(utf8Limit: 1) == "e")
    }

    @Test func replaceStartsFreshAndEqualityIsByContent() {
        var buffer = TextBuffer("old")
        buffer.replace(with: "new")
        #expect(buffer == TextBuffer("new"))
        #expect(buffer.hashValue == TextBuffer("new").hashValue)
        buffer.append("")
        #expect(buffer.text == "new")
        #expect(TextBuffer().isEmpty)
    }
}

@Suite("Whole-text updates that extend the text")
struct TextBufferSetTests {
    @Test func aSnapshotThatExtendsTheTextIsAnAppendAndKeepsTheRevision() {
        var buffer = TextBuffer("Hello")
        let snapshot = buffer
        buffer.set("Hello, world")
        #expect(buffer.text == "Hello, world")
        #expect(buffer.revision == 0)
        #expect(buffer.sharesStorage(with: snapshot))
        #expect(snapshot.text == "Hello")
        buffer.set("Hello, world")
        #expect(buffer.revision == 0 && buffer.utf8Count == 12)
    }

    @Test func aSnapshotThatDiffersReplacesTheTextAndBumpsTheRevision() {
        var buffer = TextBuffer("Hello, world")
        buffer.set("Hello, there")
        #expect(buffer.text == "Hello, there")
        #expect(buffer.revision == 1)
        buffer.set("Hello")
        #expect(buffer.text == "Hello")
        #expect(buffer.revision == 2)
    }

    @Test func v3CumulativeDeltasKeepOneRevisionAndOneStorage() throws {
        var transcript = Transcript(sessionKey: "main")
        var text = ""
        for index in 0..<50 {
            text += "piece \(index) é\n"
            let message = ChatMessage(role: .assistant, content: [.text(text)])
            transcript.apply(
                .chatEvent(ChatEvent(runId: "r", sessionKey: "main", seq: index + 1, state: .delta, message: message)))
        }
        let reply = try #require(transcript.entries.last)
        #expect(reply.text == text)
        #expect(reply.textRevision == 0)
        let final = ChatMessage(role: .assistant, content: [.text(text)])
        transcript.apply(.chatEvent(ChatEvent(runId: "r", sessionKey: "main", seq: 51, state: .final, message: final)))
        #expect(transcript.entries.last?.textRevision == 0)
        #expect(transcript.entries.last?.status == .complete)
    }
}
