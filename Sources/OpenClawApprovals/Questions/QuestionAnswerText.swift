import OpenClawProtocol

/// Reads a typed answer into the answers `question.resolve` sends, checked as upstream's gateway
/// checks them (`validateAnswers`): one answer per question, a single value for a single-select
/// question, option labels unless free text is accepted, no empty value.
///
/// For each question (separated by `;` when the record has several): option numbers (`2`, `1,3`),
/// an option's label (any case), or — when the question accepts it — the text itself. A chosen option
/// is sent as its exact label. Text in double quotes is always the person's own words, so a number
/// (`"3"`) or a `;` can be an answer too.
public enum QuestionAnswerText {
    public static func answers(_ text: String, for record: QuestionRecord) -> Result<QuestionAnswers, QuestionError> {
        let parts = record.questions.count == 1 ? [text] : splitOutsideQuotes(text)
        guard parts.count == record.questions.count else {
            return .failure(
                .invalidAnswer(
                    "This card asks \(record.questions.count) questions: answer each, separated by \";\"."))
        }
        var answers: [String: [String]] = [:]
        for (question, part) in zip(record.questions, parts) {
            switch values(part, for: question) {
            case .success(let values): answers[question.questionId] = values
            case .failure(let error): return .failure(error)
            }
        }
        return .success(QuestionAnswers(answers))
    }

    static func values(_ text: String, for question: AskedQuestion) -> Result<[String], QuestionError> {
        let trimmed = text.trimmingWhitespace()
        let label = question.header.isEmpty ? question.questionId : question.header
        guard !trimmed.isEmpty else { return .failure(.invalidAnswer("\(label) needs an answer.")) }
        if let words = quoted(trimmed) {
            guard !words.isEmpty else { return .failure(.invalidAnswer("\(label) needs an answer.")) }
            if question.acceptsFreeText { return .success([words]) }
            // Options only: a quoted label is still that option.
            if let option = question.options.first(where: { $0.label.lowercased() == words.lowercased() }) {
                return .success([option.label])
            }
            return .failure(.invalidAnswer("\(label): choose one of its options (by number or label)."))
        }
        let tokens = trimmed.split(separator: ",").map { String($0).trimmingWhitespace() }
        let numbers = tokens.compactMap { Int($0) }
        if !question.options.isEmpty, numbers.count == tokens.count {
            guard numbers.allSatisfy({ (1...question.options.count).contains($0) }) else {
                let ownWords = question.acceptsFreeText ? ", or put your own answer in quotes (\"\(trimmed)\")" : ""
                return .failure(
                    .invalidAnswer("\(label): choose options 1 to \(question.options.count)\(ownWords)."))
            }
            var seen: Set<Int> = []
            let chosen = numbers.filter { seen.insert($0).inserted }
            guard question.multiSelect || chosen.count == 1 else {
                return .failure(.invalidAnswer("\(label) takes one choice."))
            }
            return .success(chosen.map { question.options[$0 - 1].label })
        }
        if let option = question.options.first(where: { $0.label.lowercased() == trimmed.lowercased() }) {
            return .success([option.label])
        }
        guard question.acceptsFreeText else {
            return .failure(.invalidAnswer("\(label): choose one of its options (by number or label)."))
        }
        return .success([trimmed])
    }
}

extension QuestionAnswerText {
    /// The words inside quotes when the whole text is one quoted string (straight or typographic
    /// quotes, and no other quote inside); nil otherwise, so `"a" or "b"` stays as typed.
    static func quoted(_ text: String) -> String? {
        guard text.count >= 2, let first = text.first, let last = text.last, first == "\"" || first == "“",
            last == "\"" || last == "”"
        else { return nil }
        let inner = text.dropFirst().dropLast()
        guard !inner.contains(where: { $0 == "\"" || $0 == "“" || $0 == "”" }) else { return nil }
        return String(inner).trimmingWhitespace()
    }

    /// One part per question: split at each `;` that is not inside double quotes.
    static func splitOutsideQuotes(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" || character == "“" || character == "”" { quoted.toggle() }
            if character == ";", !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
