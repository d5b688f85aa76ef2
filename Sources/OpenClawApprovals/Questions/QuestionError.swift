import OpenClawGateway
import OpenClawProtocol

/// Why an answer could not be given or delivered, each with a sentence and what to do next.
public enum QuestionError: Error, Sendable, Equatable {
    /// An answer with no question pending.
    case nothingPending
    /// No pending question has this id or prefix.
    case notFound(String)
    /// The prefix (or a bare answer) names more than one pending question.
    case ambiguous(String, candidates: [String])
    /// It closed before the answer (another surface answered first, it was skipped, or it expired).
    case closed(String, QuestionOutcome)
    /// The typed answer does not fit the question (an option number out of range, two choices for a
    /// single-select question, free text where only the options are accepted …).
    case invalidAnswer(String)
    /// This client may not answer: questions are off, or the gateway lacks them or the scope.
    case unavailable(QuestionAvailability)
    case notConnected
    /// The answer left and no reply came (the connection dropped, the request timed out): it may
    /// have landed. The next connection's `question.list` tells.
    case unanswered(String)
    case gateway(GatewayError)

    public var message: String {
        switch self {
        case .nothingPending: return "No question is waiting for an answer."
        case .notFound(let id): return "No pending question matches \"\(id)\"."
        case .ambiguous(let id, let candidates):
            let shown = candidates.prefix(4).joined(separator: ", ")
            return id.isEmpty
                ? "\(candidates.count) questions are waiting: name one (\(shown))."
                : "\"\(id)\" matches \(candidates.count) pending questions (\(shown))."
        case .closed(let id, let outcome):
            switch outcome {
            case .answered(_, let byUs):
                return byUs ? "Question \(id) is already answered." : "Question \(id) was already answered elsewhere."
            case .cancelled: return "Question \(id) was skipped or its run stopped."
            case .expired: return "Question \(id) expired before an answer: the agent went on without one."
            case .withdrawn, .other: return "Question \(id) is no longer waiting."
            }
        case .invalidAnswer(let reason): return reason
        case .unavailable(let availability): return availability.message
        case .notConnected: return "Not connected to the gateway: the answer was not sent."
        case .unanswered(let id):
            return "No reply to the answer for question \(id): it may have reached the gateway."
        case .gateway(let error): return error.message
        }
    }

    public var nextStep: String? {
        switch self {
        case .nothingPending, .closed, .unanswered: return nil
        case .notFound: return "List the pending ones (/questions); an id may be shortened to a unique prefix."
        case .ambiguous: return "Name the question: /answer ID CHOICE."
        case .invalidAnswer: return "Answer with option numbers (1,3), an option's label, or your own words."
        case .unavailable(let availability): return availability.nextStep
        case .notConnected: return "Answer again once reconnected, before it expires."
        case .gateway(let error): return error.nextStep
        }
    }
}

/// Whether this client receives and may answer the agent's questions.
public enum QuestionAvailability: Sendable, Equatable {
    /// Not enabled on this client (`operator.questions` not asked for).
    case off
    /// Enabled, waiting for a connection.
    case waiting
    /// Connected with `operator.questions` to a gateway that has the question methods.
    case active
    /// The gateway has no question methods (a build from before `ask_user`): nothing is ever asked.
    case unsupported
    /// The gateway wants this device approved for `operator.questions` first; chat works meanwhile.
    case scopeRefused(GatewayError.PairingRequest?)
    /// The connection holds neither `operator.questions` nor `operator.admin`.
    case missingScope

    public var message: String {
        switch self {
        case .off: return "Agent questions are off on this client."
        case .waiting: return "Agent questions: waiting for the gateway."
        case .active: return "Agent questions on: questions the agent asks you appear here."
        case .unsupported: return "This gateway has no agent questions (question.list is not among its methods)."
        case .scopeRefused:
            return "The gateway has not approved this device for agent questions (operator.questions)."
        case .missingScope: return "This connection lacks operator.questions: the agent's questions do not reach it."
        }
    }

    public var nextStep: String? {
        switch self {
        case .off: return "Enable them (openclaw-chat chat --questions, or the app's setting)."
        case .waiting, .active, .unsupported: return nil
        case .scopeRefused(let pairing?):
            return "Run `\(pairing.approveCommand)` on the gateway host, then reconnect."
        case .scopeRefused(nil), .missingScope:
            return "Approve this device for operator.questions on the gateway (openclaw devices list), then reconnect."
        }
    }
}

/// What a `QuestionsClient` reports to its subscribers, in order.
public enum QuestionUpdate: Sendable, Equatable {
    case availability(QuestionAvailability)
    /// The agent asks: a card opens.
    case requested(PendingQuestion)
    /// It stopped waiting: answered here or elsewhere, skipped, or expired. Its card locks.
    case closed(ClosedQuestion)
}
