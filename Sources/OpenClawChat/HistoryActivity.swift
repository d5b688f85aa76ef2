import OpenClawProtocol

/// Activity steps rebuilt from stored messages: the `thinking` and `toolCall` blocks of assistant
/// messages, settled by the tool results that answer them.
///
/// Durations come from the `agent` event timings when this client saw the run live; otherwise they
/// are approximated from message timestamps (from the calling message to its result).
enum HistoryActivity {
    static func steps(
        for messages: [ChatMessage],
        entryIDs: [String],
        timings: [String: ToolTiming]
    ) -> [[ActivityStep]] {
        var results: [String: (isError: Bool, timestampMs: Int?, text: String?)] = [:]
        for message in messages where message.role == .toolResult {
            guard let id = message.toolCallId else { continue }
            let text = message.hasText ? ToolResultText.cut(message.text) : nil
            results[id] = (message.isError ?? false, message.timestampMs, text)
        }
        // A call without a result before the last user message will never get one.
        let lastUserIndex = messages.lastIndex { $0.role == .user } ?? -1

        return messages.indices.map { index in
            let message = messages[index]
            guard message.role == .assistant else { return [] }
            var steps: [ActivityStep] = []
            var thinkingCount = 0
            for (position, part) in message.content.enumerated() {
                switch part {
                case .thinking(let text):
                    thinkingCount += 1
                    steps.append(
                        ActivityStep(
                            id: "\(entryIDs[index])#thinking-\(thinkingCount)", kind: .thinking, status: .succeeded,
                            thinking: text
                        )
                    )
                case .toolCall(let id, let name, let arguments):
                    let timing = id.flatMap { timings[$0] }
                    let result = id.flatMap { results[$0] }
                    let isError = result?.isError ?? timing?.isError
                    let status: ActivityStatus =
                        if let isError { isError ? .failed : .succeeded } else if index < lastUserIndex {
                            .failed
                        } else { .running }
                    steps.append(
                        ActivityStep(
                            id: id ?? "\(entryIDs[index])#tool-\(position)",
                            kind: .tool(name: name),
                            status: status,
                            startedAtMs: timing?.startedAtMs ?? message.timestampMs,
                            endedAtMs: status == .running ? nil : timing?.endedAtMs ?? result?.timestampMs,
                            arguments: arguments,
                            result: result?.text
                        )
                    )
                case .text, .image, .file, .other:
                    break
                }
            }
            return steps
        }
    }
}
