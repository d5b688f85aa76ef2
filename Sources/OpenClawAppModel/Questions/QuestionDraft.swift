import Foundation
import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol

/// What the person has picked and typed on one open card, before it is sent: the card's form state,
/// kept here rather than in the view so that the rules the gateway checks (`validateAnswers` upstream:
/// an answer for every question, one value for a single-select question, typed text only where the
/// question accepts it) are the ones the Send button follows, and are tested without a screen.
public struct QuestionDraft: Sendable, Equatable {
    /// Chosen option labels per question id, in the order the options are listed.
    public private(set) var chosen: [String: [String]] = [:]
    /// Typed text per question id, as typed.
    public private(set) var typed: [String: String] = [:]

    public init() {}

    public func isChosen(_ label: String, in question: AskedQuestion) -> Bool {
        chosen[question.questionId]?.contains(label) == true
    }

    public func text(of question: AskedQuestion) -> String { typed[question.questionId] ?? "" }

    /// A tap on an option: a single-select question takes only this one (and drops typed text, which
    /// would be a second answer); a multi-select question adds or removes it.
    public mutating func choose(_ label: String, in question: AskedQuestion) {
        guard question.options.contains(where: { $0.label == label }) else { return }
        let id = question.questionId
        if question.multiSelect {
            var picked = Set(chosen[id] ?? [])
            if !picked.insert(label).inserted { picked.remove(label) }
            chosen[id] = question.options.map(\.label).filter { picked.contains($0) }
        } else {
            chosen[id] = chosen[id] == [label] ? [] : [label]
            typed[id] = nil
        }
    }

    /// Typed text: for a single-select question it replaces a chosen option. Ignored where the question
    /// takes options only.
    public mutating func type(_ text: String, in question: AskedQuestion) {
        guard question.acceptsFreeText else { return }
        let id = question.questionId
        typed[id] = text
        if !question.multiSelect, !text.isEmpty { chosen[id] = [] }
    }

    /// The answers to send, or the first reason the card cannot be sent yet (said as the terminal says
    /// it).
    public func answers(for card: QuestionCard) -> Result<QuestionAnswers, QuestionError> {
        var answers: [String: [String]] = [:]
        for question in card.questions {
            let label = question.header.isEmpty ? question.questionId : question.header
            var values = chosen[question.questionId] ?? []
            let words = text(of: question).trimmingCharacters(in: .whitespacesAndNewlines)
            if !words.isEmpty, question.acceptsFreeText { values.append(words) }
            guard !values.isEmpty else { return .failure(.invalidAnswer("\(label) needs an answer.")) }
            guard question.multiSelect || values.count == 1 else {
                return .failure(.invalidAnswer("\(label) takes one choice."))
            }
            answers[question.questionId] = values
        }
        return .success(QuestionAnswers(answers))
    }

    /// Whether Send can be tapped.
    public func isComplete(for card: QuestionCard) -> Bool {
        if case .success = answers(for: card) { return true }
        return false
    }
}
