/// Plays an ``AgentScript`` against the hub, pacing chunks outside the actor.
///
/// Every hub call reports whether the run is still live; an aborted run stops at its next step.
enum RunPerformer {
    static func perform(_ script: AgentScript, runId: String, hub: GatewayHub) async {
        guard await hub.runStarted(runId) else { return }
        for step in script.steps {
            switch step {
            case .thinking(let text):
                for chunk in chunks(text, size: script.chunkSize) {
                    guard await hub.runThinking(runId, chunk: chunk) else { return }
                    guard await pause(script.chunkDelayMs) else { return }
                }
            case .tool(let call):
                guard await hub.runToolStarted(runId, call: call) else { return }
                guard await pause(call.durationMs) else { return }
                guard await hub.runToolFinished(runId, call: call) else { return }
            case .say(let text):
                guard !script.silent else { continue }
                for chunk in chunks(text, size: script.chunkSize) {
                    guard await hub.runText(runId, chunk: chunk) else { return }
                    guard await pause(script.chunkDelayMs) else { return }
                }
            case .replaceText(let text):
                guard !script.silent else { continue }
                guard await hub.runReplaceText(runId, text: text) else { return }
                guard await pause(script.chunkDelayMs) else { return }
            case .status(let phase):
                guard await hub.runStatus(runId, phase: phase) else { return }
            case .commitText:
                guard await hub.runCommitText(runId) else { return }
            case .image(let byteCount):
                guard await hub.runImage(runId, byteCount: byteCount) else { return }
            case .pause(let ms):
                guard await pause(ms) else { return }
            case .approval(let approval):
                let verdict = await hub.runAwaitApproval(runId, approval)
                if verdict == .gone { return }
                guard let refusal = verdict.refusal(of: approval.command) else { continue }
                // The command does not run: the agent says why and the run ends there.
                for chunk in chunks(refusal, size: script.chunkSize) {
                    guard await hub.runText(runId, chunk: chunk) else { return }
                }
                await hub.runFinished(runId)
                return
            case .ask(let question):
                let verdict = await hub.runAwaitQuestion(runId, question)
                guard let reply = verdict.reply(to: question.questions) else { return }
                for chunk in chunks(reply, size: script.chunkSize) {
                    guard await hub.runText(runId, chunk: chunk) else { return }
                }
            case .fail(let message, let kind):
                await hub.runFailed(runId, message: message, kind: kind)
                return
            }
        }
        await hub.runFinished(runId)
    }

    /// Sleeps; false when the run's task was cancelled (aborted).
    private static func pause(_ ms: Int) async -> Bool {
        if ms > 0 { try? await Task.sleep(for: .milliseconds(ms)) } else { await Task.yield() }
        return !Task.isCancelled
    }

    static func chunks(_ text: String, size: Int) -> [String] {
        var result: [String] = []
        var current = ""
        current.reserveCapacity(size)
        var count = 0
        for character in text {
            current.append(character)
            count += 1
            if count == size {
                result.append(current)
                current = ""
                count = 0
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
