import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The test gateway's agent questions (upstream `QuestionManager`): records, first resolution wins,
/// expiry, and the runs waiting on them. A terminal record stays readable for a grace period, as
/// upstream keeps it for late `question.get` calls, then is forgotten.
struct QuestionRegistry {
    /// Upstream's `QUESTION_RESOLVED_ENTRY_GRACE_MS`.
    static let terminalGraceMs = 15_000

    enum Refusal: Error, Equatable {
        case notFound(String)
        case alreadyTerminal(String, QuestionStatus)
        case invalidAnswer(String)

        /// Upstream's `errorShape(INVALID_REQUEST, message, {details: {reason}})`.
        var shape: ErrorShape {
            switch self {
            case .notFound(let id):
                return ErrorShape(
                    code: .invalidRequest, message: "question '\(id)' was not found",
                    details: ["reason": .string(QuestionRefusal.notFound)])
            case .alreadyTerminal(let id, let status):
                return ErrorShape(
                    code: .invalidRequest, message: "question '\(id)' is already \(status.wire)",
                    details: ["reason": .string(QuestionRefusal.alreadyTerminal)])
            case .invalidAnswer(let message):
                return ErrorShape(
                    code: .invalidRequest, message: message, details: ["reason": .string(QuestionRefusal.invalidAnswer)]
                )
            }
        }
    }

    private(set) var records: [String: QuestionRecord] = [:]
    private var terminalAtMs: [String: Int] = [:]
    private var waiters: [String: [CheckedContinuation<QuestionVerdict, Never>]] = [:]

    mutating func add(_ record: QuestionRecord) { records[record.id] = record }

    /// A record as `question.get` sees it: pending, or terminal within the grace period.
    func record(_ id: String, nowMs: Int) -> QuestionRecord? {
        guard let record = records[id] else { return nil }
        if let at = terminalAtMs[id], nowMs - at > Self.terminalGraceMs { return nil }
        return record
    }

    /// The pending records, oldest first (upstream `list`).
    var pending: [QuestionRecord] {
        records.values.filter { $0.status == .pending }.sorted {
            ($0.createdAtMs ?? 0, $0.id) < ($1.createdAtMs ?? 0, $1.id)
        }
    }

    mutating func wait(_ id: String, _ continuation: CheckedContinuation<QuestionVerdict, Never>) {
        guard let record = records[id], record.status == .pending else {
            continuation.resume(returning: records[id].map(Self.verdict) ?? .gone)
            return
        }
        waiters[id, default: []].append(continuation)
    }

    /// Answers a pending record after checking the answers as upstream's `validateAnswers` does;
    /// returns the canonical answers.
    mutating func answer(
        _ id: String, _ answers: [String: [String]], by name: String?, nowMs: Int
    ) throws(Refusal)
        -> [String: [String]]
    {
        var record = try pendingRecord(id, nowMs: nowMs)
        let canonical = try Self.validate(answers, for: record.questions)
        record.status = .answered
        record.answers = QuestionAnswers(canonical)
        record.resolvedBy = name
        finish(record, nowMs: nowMs)
        return canonical
    }

    mutating func cancel(_ id: String, by name: String?, nowMs: Int) throws(Refusal) {
        var record = try pendingRecord(id, nowMs: nowMs)
        record.status = .cancelled
        record.resolvedBy = name
        finish(record, nowMs: nowMs)
    }

    /// Expires a pending record; false when it was not pending.
    mutating func expire(_ id: String, nowMs: Int) -> Bool {
        guard var record = records[id], record.status == .pending else { return false }
        record.status = .expired
        finish(record, nowMs: nowMs)
        return true
    }

    private func pendingRecord(_ id: String, nowMs: Int) throws(Refusal) -> QuestionRecord {
        guard let record = record(id, nowMs: nowMs) else { throw .notFound(id) }
        guard record.status == .pending else { throw .alreadyTerminal(id, record.status) }
        return record
    }

    private mutating func finish(_ record: QuestionRecord, nowMs: Int) {
        records[record.id] = record
        terminalAtMs[record.id] = nowMs
        let verdict = Self.verdict(record)
        for waiter in waiters.removeValue(forKey: record.id) ?? [] { waiter.resume(returning: verdict) }
    }

    private static func verdict(_ record: QuestionRecord) -> QuestionVerdict {
        switch record.status {
        case .answered: return .answered(record.answers?.answers ?? [:])
        case .pending: return .gone
        case .cancelled, .expired, .other: return .noAnswer
        }
    }

    /// Upstream `validateAnswers`: no unknown id; every question answered with non-blank values; one
    /// value unless multi-select; option labels (trimmed match) unless free text is accepted.
    static func validate(
        _ answers: [String: [String]], for questions: [AskedQuestion]
    ) throws(Refusal)
        -> [String: [String]]
    {
        let known = Set(questions.map(\.questionId))
        if let unknown = answers.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidAnswer("question '\(unknown)' is not part of this request")
        }
        var canonical: [String: [String]] = [:]
        for question in questions {
            let id = question.questionId
            guard let values = answers[id], !values.isEmpty else {
                throw .invalidAnswer("question '\(id)' requires an answer")
            }
            if values.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
                throw .invalidAnswer("question '\(id)' contains an empty answer")
            }
            if !question.multiSelect, values.count > 1 {
                throw .invalidAnswer("question '\(id)' does not allow multiple answers")
            }
            let trimmed = values.map { $0.trimming(.whitespacesAndNewlines) }
            let resolved = trimmed.map { value in
                question.options.first { $0.label.trimming(.whitespacesAndNewlines) == value }?.label
                    ?? value
            }
            if !question.options.isEmpty, !question.isOther,
                resolved.contains(where: { value in !question.options.contains { $0.label == value } })
            {
                throw .invalidAnswer("question '\(id)' contains an unknown option")
            }
            canonical[id] = resolved
        }
        return canonical
    }
}
