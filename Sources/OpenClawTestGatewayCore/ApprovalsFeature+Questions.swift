import OpenClawProtocol

/// Agent questions, as upstream's gateway runs them (`server-methods/question.ts`, `question-manager.ts`):
/// a scripted run asks (`question.requested` to every operator holding `operator.questions`), waits
/// until the first answer, skip, expiry or abort, and goes on; `question.list`, `question.get` and
/// `question.resolve` are checked as strictly as upstream's schemas check them.
extension ApprovalsFeature {
    /// Who is told about questions: an operator holding `operator.questions` (or admin).
    static func isQuestionAnswerer(_ connection: PeerSession) -> Bool {
        connection.role == .operator && ScopePolicy.allows(connection.scopes, OperatorScope.questions)
    }

    /// Opens a question for a run and tells the operators; its expiry timer starts. Nil when the
    /// gateway does not offer questions (the tool is unavailable).
    func open(
        _ scripted: ScriptedQuestion, runId: String, sessionKey: String, in gateway: isolated GatewayHub
    ) -> String? {
        guard gateway.router.offersQuestions else { return nil }
        let id = GatewayHub.newId()
        let now = GatewayHub.nowMs()
        let timeoutMs = max(1, scripted.timeoutMs ?? gateway.configuration.questionTimeoutMs)
        let record = QuestionRecord(
            id: id, questions: scripted.questions, agentId: "main", sessionKey: sessionKey, runId: runId,
            createdAtMs: now, expiresAtMs: now + timeoutMs)
        questions.add(record)
        gateway.broadcast(QuestionNames.requestedEvent, payload: record.json, include: Self.isQuestionAnswerer)
        // Unstructured: the question's deadline outlives the run's ask; a late fire finds it closed and does nothing.
        Task { [weak gateway] in
            try? await Task.sleep(for: .milliseconds(timeoutMs))
            await gateway?.expireQuestion(id)
        }
        return id
    }

    func expireQuestion(_ id: String, in gateway: isolated GatewayHub) {
        guard questions.expire(id, nowMs: GatewayHub.nowMs()) else { return }
        broadcastQuestionResolved(QuestionResolved(id: id, status: .expired), in: gateway)
    }

    /// Upstream: "An aborted agent run cancels its pending Gateway question."
    func cancelQuestionOfAbortedRun(_ id: String, in gateway: isolated GatewayHub) {
        guard (try? questions.cancel(id, by: nil, nowMs: GatewayHub.nowMs())) != nil else { return }
        broadcastQuestionResolved(QuestionResolved(id: id, status: .cancelled), in: gateway)
    }

    private func broadcastQuestionResolved(_ resolved: QuestionResolved, in gateway: isolated GatewayHub) {
        gateway.broadcast(QuestionNames.resolvedEvent, payload: resolved.json, include: Self.isQuestionAnswerer)
    }

    /// `question.list {}` → `{questions: [pending records]}`, oldest first.
    func handleQuestionList(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard gateway.validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
        gateway.respond(to: id, requestId: request.id, payload: ["questions": .array(questions.pending.map(\.json))])
    }

    /// `question.get {id}` → `{question: record}`: pending, or terminal within the grace period.
    func handleQuestionGet(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.questionGetParams, from: id),
            let questionId = params["id"]?.stringValue
        else { return }
        guard let record = questions.record(questionId, nowMs: GatewayHub.nowMs()) else {
            gateway.respond(to: id, requestId: request.id, error: QuestionRegistry.Refusal.notFound(questionId).shape)
            return
        }
        gateway.respond(to: id, requestId: request.id, payload: ["question": record.json])
    }

    /// `question.resolve`: an answer `{id, answers: {answers}}` or a skip `{id, cancel: true}`. The
    /// first resolution wins; a later one is refused `QUESTION_ALREADY_TERMINAL`.
    func handleQuestionResolve(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        if let problem = ProtocolShapes.questionResolveProblem(request.params) {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "invalid question.resolve params: \(problem)"))
            return
        }
        guard let params = request.params, let questionId = params["id"]?.stringValue else { return }
        let name = params["resolvedBy"]?.stringValue ?? gateway.peers[id]?.clientName
        let now = GatewayHub.nowMs()
        do {
            if params["cancel"] != nil {
                try questions.cancel(questionId, by: name, nowMs: now)
                gateway.respond(to: id, requestId: request.id, payload: ["status": "cancelled"])
                broadcastQuestionResolved(QuestionResolved(id: questionId, status: .cancelled), in: gateway)
            } else {
                let submitted = QuestionAnswers(json: params["answers"])?.answers ?? [:]
                let canonical = try questions.answer(questionId, submitted, by: name, nowMs: now)
                let answers = QuestionAnswers(canonical)
                gateway.respond(
                    to: id, requestId: request.id, payload: ["status": "answered", "answers": answers.json])
                broadcastQuestionResolved(
                    QuestionResolved(id: questionId, status: .answered, answers: answers), in: gateway)
            }
        } catch {
            gateway.respond(to: id, requestId: request.id, error: error.shape)
        }
    }
}
