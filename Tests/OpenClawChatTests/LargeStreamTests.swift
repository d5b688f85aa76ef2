import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Cost of long replies")
struct LargeStreamTests {
    static let deltaCount = 20_000
    /// 52 bytes per delta: 20,000 deltas make a 1,040,000-byte reply.
    static func piece(_ index: Int) -> String {
        let number = String(index)
        return "chunk " + String(repeating: "0", count: 6 - number.count) + number
            + " of a very long streamed reply.........\n"
    }

    static func delta(_ index: Int) -> TranscriptAction {
        .chatEvent(
            ChatEvent(
                runId: "big", sessionKey: "agent:main:main", seq: index + 1, state: .delta,
                deltaText: piece(index)))
    }

    static func expectedText() -> String {
        var text = ""
        for index in 0..<deltaCount { text += piece(index) }
        return text
    }

    @Test func twentyThousandAppendDeltasCostTimeProportionalToTheText() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.send("write a book", id: "big")
        let actions = (0..<Self.deltaCount).map(Self.delta)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for action in actions { transcript.apply(action) }
        }
        let reply = try #require(transcript.entry(id: "reply:big"))
        #expect(reply.textUTF8Count == 1_040_000)
        #expect(reply.text == Self.expectedText())
        print("20,000 v4 deltas (1.04 MB) applied in \(elapsed)")
        // Quadratic copying would move ~10 GB here; linear work takes milliseconds.
        #expect(elapsed < .seconds(5))
    }

    @Test func aRetainedSnapshotPerDeltaDoesNotMakeItQuadratic() throws {
        // A UI that publishes a copy of the transcript after every delta and keeps it until the next.
        var transcript = Transcript(sessionKey: "main")
        var published = transcript
        let actions = (0..<Self.deltaCount).map(Self.delta)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for action in actions {
                transcript.apply(action)
                published = transcript
            }
        }
        #expect(published.entries.first?.textUTF8Count == 1_040_000)
        #expect(published.entries.first?.text == Self.expectedText())
        print("20,000 v4 deltas with a snapshot retained after each applied in \(elapsed)")
        #expect(elapsed < .seconds(5))
    }

    @Test func oldSnapshotsKeepTheirOwnText() throws {
        var transcript = Transcript(sessionKey: "main")
        transcript.apply(Self.delta(0))
        let snapshot = transcript
        transcript.apply(Self.delta(1))
        var divergent = snapshot
        divergent.apply(.chatEvent(ChatEvent(runId: "big", sessionKey: "main", seq: 2, state: .delta, deltaText: "X")))
        #expect(snapshot.entries[0].text == Self.piece(0))
        #expect(transcript.entries[0].text == Self.piece(0) + Self.piece(1))
        #expect(divergent.entries[0].text == Self.piece(0) + "X")
        #expect(transcript != divergent)
    }
}
