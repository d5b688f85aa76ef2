import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawCLI

/// A question card as the terminal prints it: which session asked when it is not the chat's own
/// (escaped, as everything the gateway sends), and how to give a number as one's own answer.
@Suite("Question cards: what the card says")
struct QuestionCardTextTests {
    static let terminal = Terminal(environment: ["NO_COLOR": "1"])

    static func question(sessionKey: String?) -> PendingQuestion {
        let record = QuestionRecord(
            id: "abcd1234",
            questions: [
                AskedQuestion(
                    questionId: "replicas", header: "Replicas", question: "How many?",
                    options: [QuestionOption(label: "2"), QuestionOption(label: "4")], isOther: true)
            ], sessionKey: sessionKey, createdAtMs: 0, expiresAtMs: 60_000)
        return PendingQuestion(record: record, receivedAt: .now, wallClockNowMs: 0)
    }

    @Test func aCardFromAnotherSessionSaysWhichEscaped() {
        let card = QuestionText.card(
            Self.question(sessionKey: "agent:ops:\u{1B}[2Jdeploy"), shortId: "abcd",
            askedIn: "agent:ops:\u{1B}[2Jdeploy",
            now: .now, terminal: Self.terminal)
        #expect(card[0].hasPrefix("question from the agent in agent:ops:^[[2Jdeploy"), "\(card)")
        #expect(!card.joined().contains("\u{1B}"))
        let own = QuestionText.card(Self.question(sessionKey: nil), shortId: "abcd", now: .now, terminal: Self.terminal)
        #expect(own[0].hasPrefix("question from the agent  abcd"), "\(own)")
    }

    @Test func theCardSaysHowToAnswerANumberOfOnesOwn() {
        let card = QuestionText.card(
            Self.question(sessionKey: nil), shortId: "abcd", now: .now, terminal: Self.terminal)
        #expect(card.contains { $0.contains("or type your own (in \"quotes\" if a number)") }, "\(card)")
    }

    /// Outcomes already printed are remembered, but not without end: the oldest are forgotten.
    @Test func printedOutcomesAreRememberedWithinABound() {
        var printed = RecentIDs(capacity: 3)
        let first = ["a", "b", "c"].map { printed.insert($0) }
        #expect(first == [true, true, true])
        let again = printed.insert("a")
        #expect(!again, "already printed")
        for index in 0..<1_000 { _ = printed.insert("x\(index)") }
        #expect(printed.count == 3)
        #expect(!printed.contains("a"))
        #expect(printed.contains("x999") && printed.contains("x997") && !printed.contains("x996"))
        let recent = printed.insert("x998")
        #expect(!recent)
        let forgotten = printed.insert("a")
        #expect(forgotten, "forgotten long ago: new again")
    }
}
