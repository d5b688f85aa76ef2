import OpenClawProtocol
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// The pure question queue: duplicates ignored, the first word closes a card, deadlines by the
/// gateway's own clock, a reconnect's list reconciled, references matched; and typed answers read.
@Suite("Question queue")
struct QuestionQueueTests {
    static func record(
        _ id: String, multiSelect: Bool = false, isOther: Bool = true, createdAtMs: Int = 1_000,
        lifetimeMs: Int = 60_000
    ) -> QuestionRecord {
        QuestionRecord(
            id: id,
            questions: [
                AskedQuestion(
                    questionId: "target", header: "Target", question: "Where?",
                    options: [QuestionOption(label: "Staging"), QuestionOption(label: "Production")],
                    multiSelect: multiSelect, isOther: isOther)
            ], createdAtMs: createdAtMs, expiresAtMs: createdAtMs + lifetimeMs)
    }

    @Test func aDuplicateRequestIsIgnoredAndTheFirstResolutionWins() throws {
        var queue = QuestionQueue()
        let now = ContinuousClock.now
        #expect(queue.receive(Self.record("q1"), at: now, wallClockNowMs: 0) != nil)
        #expect(queue.receive(Self.record("q1"), at: now, wallClockNowMs: 0) == nil)
        let answers = QuestionAnswers(["target": ["Staging"]])
        let first = queue.close("q1", .answered(answers, byUs: false))
        let closed = try #require(first)
        #expect(closed.outcome == .answered(answers, byUs: false))
        // A later word about it (our reply, an expiry, the event again) changes nothing.
        #expect(queue.close("q1", .expired) == nil)
        #expect(queue.close("q1", .answered(answers, byUs: true)) == nil)
        #expect(queue.outcome(of: "q1") == .answered(answers, byUs: false))
        // Nor does it come back as a request.
        #expect(queue.receive(Self.record("q1"), at: now, wallClockNowMs: 0) == nil)
        #expect(queue.match("q1") == .failure(.closed("q1", .answered(answers, byUs: false))))
    }

    @Test func aClosedQuestionNamedInFullIsNeverTakenForAnotherItBegins() throws {
        var queue = QuestionQueue()
        let now = ContinuousClock.now
        _ = queue.receive(Self.record("q"), at: now, wallClockNowMs: 0)
        _ = queue.receive(Self.record("q1"), at: now, wallClockNowMs: 0)
        _ = queue.close("q", .expired)
        #expect(queue.match("q") == .failure(.closed("q", .expired)), "not q1, whose id begins with it")
        #expect(try queue.match("q1").get().id == "q1")
    }

    @Test func aRecordThatIsNotPendingOpensNoCard() {
        var queue = QuestionQueue()
        var answered = Self.record("q1")
        answered.status = .answered
        #expect(queue.receive(answered, at: .now, wallClockNowMs: 0) == nil)
        #expect(queue.pending.isEmpty)
    }

    @Test func deadlinesFollowTheGatewaysClockNotOurs() {
        var queue = QuestionQueue()
        let start = ContinuousClock.now
        // The local wall clock is a day off: the lifetime still comes from the gateway's own two times.
        let question = queue.receive(
            Self.record("q1", lifetimeMs: 30_000), at: start, wallClockNowMs: 90_000_000)
        #expect(question?.deadline == start + .seconds(30))
        #expect(question?.countdown(at: start) == "0:30")
        #expect(queue.expire(at: start + .seconds(29)).isEmpty)
        let expired = queue.expire(at: start + .seconds(30))
        #expect(expired.map(\.outcome) == [.expired])
        #expect(queue.pending.isEmpty)
        #expect(queue.nextDeadline == nil)
    }

    @Test func aReconnectsListAddsWhatWasMissedAndWithdrawsWhatIsGone() {
        var queue = QuestionQueue()
        let before = ContinuousClock.now
        _ = queue.receive(Self.record("old"), at: before, wallClockNowMs: 0)
        let since = before + .seconds(1)
        _ = queue.receive(Self.record("fresh"), at: since + .seconds(1), wallClockNowMs: 0)
        let (added, withdrawn) = queue.reconcile(
            listed: [Self.record("missed")], listedSince: since, at: since + .seconds(2), wallClockNowMs: 0)
        #expect(added.map(\.id) == ["missed"])
        #expect(withdrawn.map(\.id) == ["old"])
        #expect(withdrawn.map(\.outcome) == [.withdrawn])
        // One that arrived after the list was asked for stays: the list may predate it.
        #expect(queue.pending.map(\.id) == ["fresh", "missed"])
    }

    @Test func referencesAreMatchedByIdPrefixOrByBeingTheOnlyOne() {
        var queue = QuestionQueue()
        #expect(queue.match("") == .failure(.nothingPending))
        _ = queue.receive(Self.record("abcd1234"), at: .now, wallClockNowMs: 0)
        #expect(queue.match("").map(\.id) == .success("abcd1234"))
        // `/answer ab` with one card open is the answer "ab", not the card's id.
        #expect(!queue.namesPending("ab") && queue.namesPending("abcd"))
        _ = queue.receive(Self.record("abcd9999"), at: .now, wallClockNowMs: 0)
        #expect(queue.match("") == .failure(.ambiguous("", candidates: ["abcd1234", "abcd9999"])))
        #expect(queue.match("abcd9").map(\.id) == .success("abcd9999"))
        #expect(queue.match("zz") == .failure(.notFound("zz")))
        #expect(queue.namesPending("abcd1"))
        #expect(!queue.namesPending("abcd"))
        #expect(queue.shortId("abcd1234", minimum: 4) == "abcd1")
    }

    @Test func typedAnswersAreReadAsUpstreamChecksThem() throws {
        let single = Self.record("q1")
        #expect(try QuestionAnswerText.answers("2", for: single).get() == QuestionAnswers(["target": ["Production"]]))
        #expect(
            try QuestionAnswerText.answers(" staging ", for: single).get() == QuestionAnswers(["target": ["Staging"]]))
        #expect(
            try QuestionAnswerText.answers("somewhere else", for: single).get()
                == QuestionAnswers(["target": ["somewhere else"]]))
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("1,2", for: single).get() }
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("3", for: single).get() }
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("  ", for: single).get() }
        let multi = Self.record("q2", multiSelect: true)
        #expect(
            try QuestionAnswerText.answers("2, 1, 2", for: multi).get()
                == QuestionAnswers(["target": ["Production", "Staging"]]))
        let closed = Self.record("q3", isOther: false)
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("elsewhere", for: closed).get() }
        var two = Self.record("q4")
        two.questions.append(
            AskedQuestion(questionId: "when", header: "When", question: "When?", options: [], isOther: false))
        #expect(
            try QuestionAnswerText.answers("1; tonight", for: two).get()
                == QuestionAnswers(["target": ["Staging"], "when": ["tonight"]]))
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("1", for: two).get() }
    }

    /// Quotes make the person's own words of what would otherwise be an option number or a separator:
    /// "3" on a card with two options, a `;` inside an answer to a card of several questions.
    @Test func quotedTextIsAlwaysTheirOwnWords() throws {
        let single = Self.record("q1")
        #expect(try QuestionAnswerText.answers("\"3\"", for: single).get() == QuestionAnswers(["target": ["3"]]))
        #expect(try QuestionAnswerText.answers(" \"2\" ", for: single).get() == QuestionAnswers(["target": ["2"]]))
        let refused = QuestionAnswerText.answers("3", for: single)
        guard case .failure(.invalidAnswer(let reason)) = refused else {
            Issue.record("an option number out of range is refused: \(refused)")
            return
        }
        #expect(reason.contains("\"3\""), "it says how to give 3 as an answer: \(reason)")
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("\"\"", for: single).get() }
        let closed = Self.record("q3", isOther: false)
        #expect(
            try QuestionAnswerText.answers("\"staging\"", for: closed).get()
                == QuestionAnswers(["target": ["Staging"]]),
            "a quoted label is still the option")
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("\"Moon\"", for: closed).get() }
        #expect(
            try QuestionAnswerText.answers("\"a\" or \"b\"", for: single).get()
                == QuestionAnswers(["target": ["\"a\" or \"b\""]]), "only a wholly quoted text loses its quotes")
        #expect(try QuestionAnswerText.answers("“4”", for: single).get() == QuestionAnswers(["target": ["4"]]))

        var two = Self.record("q4")
        two.questions.append(
            AskedQuestion(questionId: "when", header: "When", question: "When?", options: [], isOther: false))
        #expect(
            try QuestionAnswerText.answers("\"a; b\"; tonight", for: two).get()
                == QuestionAnswers(["target": ["a; b"], "when": ["tonight"]]))
        #expect(throws: QuestionError.self) { try QuestionAnswerText.answers("a; b; tonight", for: two).get() }
    }

    @Test func recordsAreReadLenientlyButNeverWithoutAQuestion() throws {
        let wire: JSONValue = [
            "id": "q1", "status": "pending", "createdAtMs": 5, "expiresAtMs": 905, "runId": "r1",
            "futureField": true,
            "questions": [
                [
                    "questionId": "pick", "header": "Pick", "question": "Which?", "multiSelect": true,
                    "isOther": true, "url": "https://example.com",
                    "options": [["label": "A", "description": "first"], ["label": "B"]],
                ]
            ],
        ]
        let record = try #require(QuestionRecord(json: wire))
        #expect(record.runId == "r1" && record.lifetimeMs == 900)
        #expect(record.questions.first?.options.map(\.label) == ["A", "B"])
        #expect(record.questions.first?.multiSelect == true)
        #expect(QuestionRecord(json: ["id": "q1", "questions": []]) == nil)
        #expect(QuestionRecord(json: ["questions": wire["questions"] ?? .null]) == nil)
        let four = JSONValue.array(Array(repeating: wire["questions"]?.arrayValue?.first ?? .null, count: 4))
        #expect(QuestionRecord(json: ["id": "q1", "questions": four]) == nil)
        #expect(
            QuestionResolveParams.cancel(id: "q1").json == ["id": "q1", "cancel": true])
        #expect(
            QuestionResolveParams.answer(id: "q1", QuestionAnswers(["pick": ["A"]])).json == [
                "id": "q1", "answers": ["answers": ["pick": ["A"]]],
            ])
    }
}
