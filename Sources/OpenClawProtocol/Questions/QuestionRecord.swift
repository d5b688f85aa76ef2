/// A question record (upstream `QuestionRecordSchema`, summer 2026): one to three questions the
/// agent's `ask_user` tool put to the operator, with the gateway's times and, once terminal, how it
/// ended. Sent by `question.requested`, `question.list` and `question.get`.
///
/// Upstream's schema is closed, but it grows (a later build adds `runId`, `url`, `secretStore` …), so
/// reading keeps the known fields and ignores the rest. A record without an `id`, without a question,
/// or with more than ``maxQuestions`` is refused (nil): nothing sensible can be shown or answered.
public struct QuestionRecord: Sendable, Hashable {
    public var id: String
    public var questions: [AskedQuestion]
    public var agentId: String?
    public var sessionKey: String?
    /// The agent run that asked (later builds), so a card can stay with its turn.
    public var runId: String?
    /// Epoch milliseconds on the gateway's clock.
    public var createdAtMs: Int?
    public var expiresAtMs: Int?
    public var status: QuestionStatus
    /// Present when ``status`` is `answered`.
    public var answers: QuestionAnswers?
    public var resolvedBy: String?

    /// Upstream's `maxItems` for `questions`.
    public static let maxQuestions = 3

    public init(
        id: String, questions: [AskedQuestion], agentId: String? = nil, sessionKey: String? = nil,
        runId: String? = nil, createdAtMs: Int? = nil, expiresAtMs: Int? = nil, status: QuestionStatus = .pending,
        answers: QuestionAnswers? = nil, resolvedBy: String? = nil
    ) {
        self.id = id
        self.questions = questions
        self.agentId = agentId
        self.sessionKey = sessionKey
        self.runId = runId
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.status = status
        self.answers = answers
        self.resolvedBy = resolvedBy
    }

    public init?(json: JSONValue?) {
        guard let json, let id = json["id"]?.nonEmptyStringValue, let items = json["questions"]?.arrayValue,
            (1...Self.maxQuestions).contains(items.count)
        else { return nil }
        let questions = items.compactMap(AskedQuestion.init(json:))
        guard questions.count == items.count else { return nil }
        self.id = id
        self.questions = questions
        self.agentId = json["agentId"]?.nonEmptyStringValue
        self.sessionKey = json["sessionKey"]?.nonEmptyStringValue
        self.runId = json["runId"]?.nonEmptyStringValue
        self.createdAtMs = WireTimestamp.epochMilliseconds(json["createdAtMs"])
        self.expiresAtMs = WireTimestamp.epochMilliseconds(json["expiresAtMs"])
        self.status = json["status"]?.stringValue.map(QuestionStatus.init(wire:)) ?? .pending
        self.answers = QuestionAnswers(json: json["answers"])
        self.resolvedBy = json["resolvedBy"]?.nonEmptyStringValue
    }

    /// The wire form (the test gateway sends it; upstream field names and order of presence).
    public var json: JSONValue {
        .object(dropping: [
            ("id", .string(id)), ("questions", .array(questions.map(\.json))),
            ("agentId", agentId.map(JSONValue.string)), ("sessionKey", sessionKey.map(JSONValue.string)),
            ("runId", runId.map(JSONValue.string)), ("createdAtMs", createdAtMs.map(JSONValue.int)),
            ("expiresAtMs", expiresAtMs.map(JSONValue.int)), ("status", .string(status.wire)),
            ("answers", answers?.json), ("resolvedBy", resolvedBy.map(JSONValue.string)),
        ])
    }

    /// How long the gateway gives the operator, by its own clock (`expiresAtMs - createdAtMs`); nil
    /// when either is missing or the span is negative.
    public var lifetimeMs: Int? {
        guard let createdAtMs, let expiresAtMs else { return nil }
        let (span, overflow) = expiresAtMs.subtractingReportingOverflow(createdAtMs)
        return overflow || span < 0 ? nil : span
    }
}

/// One question of a record (upstream `QuestionSchema`).
public struct AskedQuestion: Sendable, Hashable {
    /// The answer key (`^[a-z][a-z0-9_]*$` upstream).
    public var questionId: String
    /// A short label, at most 12 characters upstream.
    public var header: String
    public var question: String
    public var options: [QuestionOption]
    public var multiSelect: Bool
    /// Whether a free-text answer is accepted besides the options (upstream always offers one to the
    /// `ask_user` tool's questions).
    public var isOther: Bool
    /// The answer is a secret: a client should not echo or keep it.
    public var isSecret: Bool

    /// Upstream's `maxItems` for `options`.
    public static let maxOptions = 4

    public init(
        questionId: String, header: String, question: String, options: [QuestionOption],
        multiSelect: Bool = false, isOther: Bool = true, isSecret: Bool = false
    ) {
        self.questionId = questionId
        self.header = header
        self.question = question
        self.options = options
        self.multiSelect = multiSelect
        self.isOther = isOther
        self.isSecret = isSecret
    }

    public init?(json: JSONValue) {
        guard let questionId = json["questionId"]?.nonEmptyStringValue,
            let question = json["question"]?.nonEmptyStringValue,
            let items = json["options"]?.arrayValue, items.count <= Self.maxOptions
        else { return nil }
        let options = items.compactMap(QuestionOption.init(json:))
        guard options.count == items.count else { return nil }
        self.questionId = questionId
        self.header = json["header"]?.stringValue ?? ""
        self.question = question
        self.options = options
        self.multiSelect = json["multiSelect"]?.boolValue ?? false
        self.isOther = json["isOther"]?.boolValue ?? false
        self.isSecret = json["isSecret"]?.boolValue ?? false
    }

    public var json: JSONValue {
        .object(dropping: [
            ("questionId", .string(questionId)), ("header", .string(header)), ("question", .string(question)),
            ("options", .array(options.map(\.json))), ("multiSelect", .bool(multiSelect)),
            ("isOther", .bool(isOther)), ("isSecret", .bool(isSecret)),
        ])
    }

    /// Whether a typed text that names no option is a valid answer (upstream `validateAnswers`: any
    /// value when there are no options or `isOther` is set).
    public var acceptsFreeText: Bool { options.isEmpty || isOther }
}

/// One offered answer (upstream `QuestionOptionSchema`).
public struct QuestionOption: Sendable, Hashable {
    /// Sent back as the answer when chosen.
    public var label: String
    public var description: String?

    public init(label: String, description: String? = nil) {
        self.label = label
        self.description = description
    }

    public init?(json: JSONValue) {
        guard let label = json["label"]?.nonEmptyStringValue else { return nil }
        self.label = label
        self.description = json["description"]?.nonEmptyStringValue
    }

    public var json: JSONValue {
        .object(dropping: [("label", .string(label)), ("description", description.map(JSONValue.string))])
    }
}

/// Upstream `QuestionStatusSchema`.
public enum QuestionStatus: Sendable, Hashable {
    case pending, answered, cancelled, expired
    /// A status this client does not know (a newer gateway's value): treated as terminal.
    case other(String)

    public init(wire: String) {
        switch wire {
        case "pending": self = .pending
        case "answered": self = .answered
        case "cancelled": self = .cancelled
        case "expired": self = .expired
        default: self = .other(wire)
        }
    }

    public var wire: String {
        switch self {
        case .pending: "pending"
        case .answered: "answered"
        case .cancelled: "cancelled"
        case .expired: "expired"
        case .other(let text): text
        }
    }
}

/// Upstream `QuestionAnswersSchema`: `{answers: {questionId: [value, …]}}` — an array for every
/// question, single-select or not.
public struct QuestionAnswers: Sendable, Hashable {
    public var answers: [String: [String]]

    public init(_ answers: [String: [String]]) { self.answers = answers }

    public init?(json: JSONValue?) {
        guard let members = json?["answers"]?.objectValue else { return nil }
        var answers: [String: [String]] = [:]
        for (key, value) in members {
            guard let items = value.arrayValue else { return nil }
            answers[key] = items.compactMap(\.stringValue)
        }
        self.answers = answers
    }

    public var json: JSONValue {
        ["answers": .object(answers.mapValues { .array($0.map(JSONValue.string)) })]
    }
}
