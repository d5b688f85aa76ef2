import OpenClawProtocol

/// `agent` events: the activity of a run (thinking stretches and tool calls, with gateway-timed
/// durations). Reply text is never taken from here — late gateways stop sending it — only from
/// `chat` events.
extension Transcript {
    mutating func applyAgentEvent(_ event: AgentEvent) -> TranscriptApplyResult {
        if let key = event.sessionKey {
            guard sessionKeys.matches(key, sessionKey) else { return .ignored(.otherSession) }
        } else if runs[event.runId] == nil, lastIndex(ofEntry: event.runId) == nil {
            return .ignored(.unknownRun)
        }
        var run = runs[event.runId] ?? RunRecord(runId: event.runId)
        if let seq = event.seq {
            if let last = run.lastAgentSeq, seq <= last { return .ignored(.duplicate) }
            run.lastAgentSeq = seq
        }
        defer { runs[event.runId] = run }

        if run.outcome != nil {
            // Tool results can trail the terminal chat event; they still settle their step.
            guard case .tool(.result(_, let toolCallId, let isError, let result)) = event.stream else {
                return .ignored(.runEnded)
            }
            recordToolResult(
                toolCallId: toolCallId, name: nil, isError: isError, result: result, at: event.ts, runId: event.runId)
            return .applied
        }

        switch event.stream {
        case .lifecycle(.start):
            _ = replyIndex(for: event.runId)
        case .lifecycle:
            closeThinking(of: &run, at: event.ts)
        case .assistant:
            closeThinking(of: &run, at: event.ts)
        case .thinking(let text, let delta):
            appendThinking(text: text, delta: delta, at: event.ts, run: &run)
        case .tool(.start(let name, let toolCallId, let args)):
            closeThinking(of: &run, at: event.ts)
            toolTimings[toolCallId, default: ToolTiming()].startedAtMs = event.ts
            let index = replyIndex(for: event.runId)
            if let step = entries[index].activity.firstIndex(where: { $0.id == toolCallId }) {
                entries[index].activity[step].arguments = args
            } else {
                entries[index].activity.append(
                    ActivityStep(
                        id: toolCallId, kind: .tool(name: name), status: .running, startedAtMs: event.ts,
                        arguments: args
                    )
                )
            }
        case .tool(.update(let name, let toolCallId, _)):
            let index = replyIndex(for: event.runId)
            if !entries[index].activity.contains(where: { $0.id == toolCallId }) {
                entries[index].activity.append(ActivityStep(id: toolCallId, kind: .tool(name: name), status: .running))
            }
        case .tool(.result(let name, let toolCallId, let isError, let result)):
            recordToolResult(
                toolCallId: toolCallId, name: name, isError: isError, result: result, at: event.ts, runId: event.runId)
        case .other:
            break
        }
        return .applied
    }

    /// Settles a tool step (creating it when its start was missed) and remembers the timing, which
    /// outlives the live row so history-built steps keep their duration.
    private mutating func recordToolResult(
        toolCallId: String, name: String?, isError: Bool, result: JSONValue?, at ts: Int?, runId: String
    ) {
        toolTimings[toolCallId, default: ToolTiming()].endedAtMs = ts
        toolTimings[toolCallId, default: ToolTiming()].isError = isError
        let status: ActivityStatus = isError ? .failed : .succeeded
        let text = result.flatMap(ToolResultText.text(of:))
        for index in entries.indices.reversed() {
            guard let step = entries[index].activity.firstIndex(where: { $0.id == toolCallId }) else { continue }
            entries[index].activity[step].status = status
            entries[index].activity[step].endedAtMs = ts
            if let text { entries[index].activity[step].result = text }
            return
        }
        guard let name, let index = lastIndex(ofReplyTo: runId) else { return }
        entries[index].activity.append(
            ActivityStep(id: toolCallId, kind: .tool(name: name), status: status, endedAtMs: ts, result: text)
        )
    }

    /// Thinking text joins the open thinking step, or opens a new one (after a tool call, say).
    private mutating func appendThinking(text: String?, delta: String?, at ts: Int?, run: inout RunRecord) {
        let index = replyIndex(for: run.runId)
        if let step = run.openThinkingStep, step < entries[index].activity.count {
            if let text {
                entries[index].activity[step].thinking.replace(with: text)
            } else if let delta {
                entries[index].activity[step].thinking.append(delta)
            }
            return
        }
        run.thinkingStepCount += 1
        entries[index].activity.append(
            ActivityStep(
                id: "\(run.runId)#thinking-\(run.thinkingStepCount)", kind: .thinking, status: .running,
                startedAtMs: ts, thinking: text ?? delta ?? ""
            )
        )
        run.openThinkingStep = entries[index].activity.count - 1
    }

    /// Thinking ends when the agent does something else: writes text, calls a tool, or stops.
    private mutating func closeThinking(of run: inout RunRecord, at ts: Int?) {
        guard let step = run.openThinkingStep else { return }
        run.openThinkingStep = nil
        guard let index = lastIndex(ofReplyTo: run.runId), step < entries[index].activity.count else { return }
        entries[index].activity[step].finish(.succeeded, at: ts)
    }
}
