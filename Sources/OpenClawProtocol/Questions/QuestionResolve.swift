/// Names of the question family (`ask_user`, summer 2026; upstream `docs/platforms/mac/webchat.md`).
public enum QuestionNames {
    public static let listMethod = "question.list"
    public static let getMethod = "question.get"
    public static let resolveMethod = "question.resolve"
    public static let requestedEvent = "question.requested"
    public static let resolvedEvent = "question.resolved"
}

/// `question.resolve` (upstream `QuestionResolveParamsSchema`, a union of two closed objects): an
/// answer `{id, answers: {answers: {…}}}` or a skip `{id, cancel: true}`. `resolvedBy` is left out:
/// upstream treats it as display metadata, and the gateway knows who this connection is.
public enum QuestionResolveParams: Sendable, Hashable {
    case answer(id: String, QuestionAnswers)
    case cancel(id: String)

    public static let method = QuestionNames.resolveMethod

    public var id: String {
        switch self {
        case .answer(let id, _), .cancel(let id): id
        }
    }

    public var json: JSONValue {
        switch self {
        case .answer(let id, let answers): ["id": .string(id), "answers": answers.json]
        case .cancel(let id): ["id": .string(id), "cancel": true]
        }
    }
}

/// `question.get {id}` (upstream `QuestionGetParamsSchema`, closed).
public struct QuestionGetParams: Sendable, Hashable {
    public static let method = QuestionNames.getMethod
    public var id: String

    public init(id: String) { self.id = id }

    public var json: JSONValue { ["id": .string(id)] }
}

/// `question.resolved` (upstream `QuestionResolvedEventSchema`): `{id, status: answered, answers}`,
/// `{id, status: cancelled}` or `{id, status: expired}`. Also the shape of `question.resolve`'s answer
/// (without `id`).
public struct QuestionResolved: Sendable, Hashable {
    public var id: String
    public var status: QuestionStatus
    public var answers: QuestionAnswers?

    public init(id: String, status: QuestionStatus, answers: QuestionAnswers? = nil) {
        self.id = id
        self.status = status
        self.answers = answers
    }

    /// Nil without `id` or `status`, or for a `pending` status (not a resolution).
    public init?(json: JSONValue?, id fallbackId: String? = nil) {
        guard let json, let id = json["id"]?.nonEmptyStringValue ?? fallbackId,
            let status = json["status"]?.stringValue.map(QuestionStatus.init(wire:)), status != .pending
        else { return nil }
        self.id = id
        self.status = status
        self.answers = QuestionAnswers(json: json["answers"])
    }

    public var json: JSONValue {
        .object(dropping: [("id", .string(id)), ("status", .string(status.wire)), ("answers", answers?.json)])
    }
}

/// `details.reason` of a refused question call (upstream `QuestionManagerErrorCodes`, sent as
/// `INVALID_REQUEST` with `{details: {reason}}`).
public enum QuestionRefusal {
    public static let notFound = "QUESTION_NOT_FOUND"
    public static let alreadyTerminal = "QUESTION_ALREADY_TERMINAL"
    public static let invalidAnswer = "QUESTION_INVALID_ANSWER"
}
