/// The steps `RunPerformer` plays, each taken up by `ChatFeature` in the hub's isolation; each
/// answers whether the run is still live.
extension GatewayHub {
    func runStarted(_ runId: String) -> Bool { chat.runStarted(runId, in: self) }
    func runThinking(_ runId: String, chunk: String) -> Bool { chat.runThinking(runId, chunk: chunk, in: self) }
    func runText(_ runId: String, chunk: String) -> Bool { chat.runText(runId, chunk: chunk, in: self) }
    func runReplaceText(_ runId: String, text: String) -> Bool { chat.runReplaceText(runId, text: text, in: self) }
    func runStatus(_ runId: String, phase: String) -> Bool { chat.runStatus(runId, phase: phase, in: self) }
    func runCommitText(_ runId: String) -> Bool { chat.runCommitText(runId, in: self) }
    func runImage(_ runId: String, byteCount: Int) -> Bool { chat.runImage(runId, byteCount: byteCount, in: self) }
    func runToolStarted(_ runId: String, call: ScriptedToolCall) -> Bool {
        chat.runToolStarted(runId, call: call, in: self)
    }
    func runToolFinished(_ runId: String, call: ScriptedToolCall) -> Bool {
        chat.runToolFinished(runId, call: call, in: self)
    }
    func runFinished(_ runId: String) { chat.runFinished(runId, in: self) }
    func runFailed(_ runId: String, message: String, kind: String) {
        chat.runFailed(runId, message: message, kind: kind, in: self)
    }
}
