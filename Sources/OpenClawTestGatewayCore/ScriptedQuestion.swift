import OpenClawProtocol

/// Questions a scripted run puts to the operator (upstream's `ask_user` tool) before it goes on.
public struct ScriptedQuestion: Sendable, Hashable {
    /// One to three questions, shown exactly as given (hostile strings included).
    public var questions: [AskedQuestion]
    /// How long the gateway waits; the configuration's `questionTimeoutMs` when nil.
    public var timeoutMs: Int?

    public init(questions: [AskedQuestion], timeoutMs: Int? = nil) {
        self.questions = questions
        self.timeoutMs = timeoutMs
    }

    /// The default `ask me` question: one single-select question with three options and free text.
    public static func deployTarget(question: String = "Where should I deploy the release?") -> ScriptedQuestion {
        ScriptedQuestion(questions: [
            AskedQuestion(
                questionId: "deploy_target", header: "Target", question: question,
                options: [
                    QuestionOption(label: "Staging (Recommended)", description: "Safe to try"),
                    QuestionOption(label: "Production"), QuestionOption(label: "Nowhere yet"),
                ], isOther: true)
        ])
    }
}

/// How a scripted question ended, as the run sees it.
enum QuestionVerdict: Sendable, Equatable {
    case answered([String: [String]])
    /// Skipped (`cancel`) or nobody answered in time: upstream's tool result is `no_answer`.
    case noAnswer
    /// The gateway has no questions (``GatewayQuirks/noQuestions``): the tool is not offered.
    case unavailable
    /// The run was aborted while waiting.
    case gone

    /// What the agent says next.
    func reply(to questions: [AskedQuestion]) -> String? {
        switch self {
        case .answered(let answers):
            let parts = questions.map { question in
                "\(question.header.isEmpty ? question.questionId : question.header): "
                    + (answers[question.questionId] ?? []).joined(separator: ", ")
            }
            return "Thanks, going with \(parts.joined(separator: "; "))."
        case .noAnswer: return "No answer, so I will go with my best judgement."
        case .unavailable: return "I cannot ask you here, so I will go with my best judgement."
        case .gone: return nil
        }
    }
}
