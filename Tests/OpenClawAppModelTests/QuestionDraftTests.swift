import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawAppModel

/// The app's question form follows the rules the gateway checks: Send is possible only with an answer
/// for every question, one value where one is asked, typed words only where they are accepted.
@Suite("Question cards: the app's form")
struct QuestionDraftTests {
    static let target = AskedQuestion(
        questionId: "target", header: "Target", question: "Where?",
        options: [QuestionOption(label: "Staging"), QuestionOption(label: "Production")], isOther: true)
    static let checks = AskedQuestion(
        questionId: "checks", header: "Checks", question: "Which?",
        options: [QuestionOption(label: "Lint"), QuestionOption(label: "Tests"), QuestionOption(label: "Docs")],
        multiSelect: true, isOther: false)

    static func card(_ questions: [AskedQuestion]) -> QuestionCard {
        let record = QuestionRecord(id: "q1", questions: questions, createdAtMs: 0, expiresAtMs: 60_000)
        return QuestionCard(
            question: PendingQuestion(record: record, receivedAt: .now, wallClockNowMs: 0), shortId: "q1")
    }

    @Test func aSingleChoiceTakesOneValueAndTypedWordsReplaceIt() throws {
        let card = Self.card([Self.target])
        var draft = QuestionDraft()
        #expect(!draft.isComplete(for: card), "nothing chosen yet")
        draft.choose("Staging", in: Self.target)
        draft.choose("Production", in: Self.target)
        #expect(try draft.answers(for: card).get() == QuestionAnswers(["target": ["Production"]]))
        draft.type("the blue cluster", in: Self.target)
        #expect(!draft.isChosen("Production", in: Self.target))
        #expect(try draft.answers(for: card).get() == QuestionAnswers(["target": ["the blue cluster"]]))
        draft.choose("Staging", in: Self.target)
        #expect(draft.text(of: Self.target).isEmpty, "a chosen option drops the typed words")
        #expect(try draft.answers(for: card).get() == QuestionAnswers(["target": ["Staging"]]))
        draft.choose("Staging", in: Self.target)
        #expect(!draft.isComplete(for: card), "a second tap clears the choice")
    }

    @Test func severalChoicesKeepTheOptionsOrderAndWordsOnlyWhereAccepted() throws {
        let card = Self.card([Self.target, Self.checks])
        var draft = QuestionDraft()
        draft.choose("Docs", in: Self.checks)
        draft.choose("Lint", in: Self.checks)
        draft.choose("Tests", in: Self.checks)
        draft.choose("Tests", in: Self.checks)
        draft.type("and a fuzz run", in: Self.checks)
        draft.choose("Nonexistent", in: Self.checks)
        #expect(draft.answers(for: card) == .failure(.invalidAnswer("Target needs an answer.")))
        draft.type("   ", in: Self.target)
        #expect(!draft.isComplete(for: card), "blank words are no answer")
        draft.choose("Staging", in: Self.target)
        #expect(
            try draft.answers(for: card).get()
                == QuestionAnswers(["target": ["Staging"], "checks": ["Lint", "Docs"]]))
    }
}
