import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol

/// One of the agent's questions as the chat shows it: inline, open until answered here, answered on
/// another surface, skipped or expired — then locked with what happened (upstream's iOS cards lock
/// the same way and stay in the timeline as a question-to-answer summary).
public struct QuestionCard: Sendable, Identifiable, Equatable {
    public let question: PendingQuestion
    public let shortId: String
    /// Nil while it can be answered.
    public var outcome: QuestionOutcome?

    public var id: String { question.id }
    public var questions: [AskedQuestion] { question.questions }
    public var isLocked: Bool { outcome != nil }

    /// One line for the locked card: the answer per question (secrets hidden), or why there is none.
    public var summary: String? {
        switch outcome {
        case nil: nil
        case .answered(let answers, _)?:
            questions.map { asked in
                asked.isSecret ? "(secret)" : (answers.answers[asked.questionId] ?? []).joined(separator: ", ")
            }.joined(separator: "; ")
        case .cancelled?: "Skipped: the agent decides."
        case .expired?: "Expired: the agent went on without an answer."
        case .withdrawn?, .other?: "No longer waiting."
        }
    }
}
