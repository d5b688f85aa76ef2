import OpenClawProtocol

/// What a scripted run waits on: an approval or a question, asked through `ApprovalsFeature` and
/// awaited here, where the hub's isolation lets a continuation wait and a timer come back.
extension GatewayHub {
    /// Asks the connected approvers about `approval` and waits for the outcome; an aborted run stops
    /// waiting.
    func runAwaitApproval(_ runId: String, _ approval: ScriptedApproval) async -> ApprovalVerdict {
        guard let run = chat.runs[runId] else { return .gone }
        switch approvals.open(approval, sessionKey: run.sessionKey, in: self) {
        case .settled(let verdict):
            return verdict
        case .waiting(let id):
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in approvals.registry.wait(id, continuation) }
            } onCancel: {
                // Unstructured: a cancellation handler is synchronous and cannot enter the hub's actor.
                Task { await self.releaseApproval(id) }
            }
        }
    }

    /// Asks the operators and waits for the outcome. A gateway without questions does not offer the
    /// tool (``QuestionVerdict/unavailable``); an aborted run cancels its question.
    func runAwaitQuestion(_ runId: String, _ scripted: ScriptedQuestion) async -> QuestionVerdict {
        guard let run = chat.runs[runId] else { return .gone }
        guard let id = approvals.open(scripted, runId: runId, sessionKey: run.sessionKey, in: self) else {
            return .unavailable
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in approvals.questions.wait(id, continuation) }
        } onCancel: {
            // Unstructured: a cancellation handler is synchronous and cannot enter the hub's actor.
            Task { await self.cancelQuestionOfAbortedRun(id) }
        }
    }

    func expireApproval(_ id: String) { approvals.expireApproval(id, in: self) }

    func releaseApproval(_ id: String) { approvals.registry.release(id) }

    func expireQuestion(_ id: String) { approvals.expireQuestion(id, in: self) }

    func cancelQuestionOfAbortedRun(_ id: String) { approvals.cancelQuestionOfAbortedRun(id, in: self) }

    func pendingApprovalIds() -> [String] { approvals.registry.pendingIds }

    func pendingQuestionIds() -> [String] { approvals.questions.pending.map(\.id) }
}
