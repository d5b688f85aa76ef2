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
