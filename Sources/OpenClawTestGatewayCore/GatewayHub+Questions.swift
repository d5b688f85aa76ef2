import OpenClawProtocol

/// Agent questions, as upstream's gateway runs them (`server-methods/question.ts`, `question-manager.ts`):
/// a scripted run asks (`question.requested` to every operator holding `operator.questions`), waits
/// until the first answer, skip, expiry or abort, and goes on; `question.list`, `question.get` and
/// `question.resolve` are checked as strictly as upstream's schemas check them.
extension GatewayHub {
    /// Who is told about questions: an operator holding `operator.questions` (or admin).
    static func isQuestionAnswerer(_ connection: ConnectionState) -> Bool {
        connection.role == "operator" && ScopePolicy.allows(connection.scopes, OperatorScope.questions)
    }

    var questionsOffered: Bool { v4 && !configuration.quirks.contains(.noQuestions) }

    /// Asks the operators and waits for the outcome. A gateway without questions does not offer the
    /// tool (``QuestionVerdict/unavailable``); an aborted run cancels its question.
    func runAwaitQuestion(_ runId: String, _ scripted: ScriptedQuestion) async -> QuestionVerdict {
        guard let run = runs[runId] else { return .gone }
        guard questionsOffered else { return .unavailable }
        let id = Self.newId()
        let now = Self.nowMs()
        let timeoutMs = max(1, scripted.timeoutMs ?? configuration.questionTimeoutMs)
        let record = QuestionRecord(
            id: id, questions: scripted.questions, agentId: "main", sessionKey: run.sessionKey, runId: runId,
            createdAtMs: now, expiresAtMs: now + timeoutMs)
        questions.add(record)
        broadcast(QuestionNames.requestedEvent, payload: record.json, include: Self.isQuestionAnswerer)
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(timeoutMs))
            await self?.expireQuestion(id)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in questions.wait(id, continuation) }
        } onCancel: {
            Task { await self.cancelQuestionOfAbortedRun(id) }
        }
    }

    func expireQuestion(_ id: String) {
        guard questions.expire(id, nowMs: Self.nowMs()) else { return }
        broadcastQuestionResolved(QuestionResolved(id: id, status: .expired))
    }

    /// Upstream: "An aborted agent run cancels its pending Gateway question."
    func cancelQuestionOfAbortedRun(_ id: String) {
        guard (try? questions.cancel(id, by: nil, nowMs: Self.nowMs())) != nil else { return }
        broadcastQuestionResolved(QuestionResolved(id: id, status: .cancelled))
    }

    private func broadcastQuestionResolved(_ resolved: QuestionResolved) {
        broadcast(QuestionNames.resolvedEvent, payload: resolved.json, include: Self.isQuestionAnswerer)
    }

    /// `question.list {}` → `{questions: [pending records]}`, oldest first.
    func handleQuestionList(_ request: RequestFrame, from id: Int) {
        guard validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
        respond(to: id, requestId: request.id, payload: ["questions": .array(questions.pending.map(\.json))])
    }

    /// `question.get {id}` → `{question: record}`: pending, or terminal within the grace period.
    func handleQuestionGet(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.questionGetParams, from: id),
            let questionId = params["id"]?.stringValue
        else { return }
        guard let record = questions.record(questionId, nowMs: Self.nowMs()) else {
            respond(to: id, requestId: request.id, error: QuestionRegistry.Refusal.notFound(questionId).shape)
            return
        }
        respond(to: id, requestId: request.id, payload: ["question": record.json])
    }

    /// `question.resolve`: an answer `{id, answers: {answers}}` or a skip `{id, cancel: true}`. The
    /// first resolution wins; a later one is refused `QUESTION_ALREADY_TERMINAL`.
    func handleQuestionResolve(_ request: RequestFrame, from id: Int) {
        if let problem = ProtocolShapes.questionResolveProblem(request.params) {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "invalid question.resolve params: \(problem)"))
            return
        }
        guard let params = request.params, let questionId = params["id"]?.stringValue else { return }
        let name = params["resolvedBy"]?.stringValue ?? connections[id]?.clientName
        let now = Self.nowMs()
        do {
            if params["cancel"] != nil {
                try questions.cancel(questionId, by: name, nowMs: now)
                respond(to: id, requestId: request.id, payload: ["status": "cancelled"])
                broadcastQuestionResolved(QuestionResolved(id: questionId, status: .cancelled))
            } else {
                let submitted = QuestionAnswers(json: params["answers"])?.answers ?? [:]
                let canonical = try questions.answer(questionId, submitted, by: name, nowMs: now)
                let answers = QuestionAnswers(canonical)
                respond(to: id, requestId: request.id, payload: ["status": "answered", "answers": answers.json])
                broadcastQuestionResolved(QuestionResolved(id: questionId, status: .answered, answers: answers))
            }
        } catch {
            respond(to: id, requestId: request.id, error: error.shape)
        }
    }
}
