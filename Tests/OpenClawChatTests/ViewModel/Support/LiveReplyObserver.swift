import Observation
import OpenClawChat

/// Watches a view model's running reply until the run ends, recording each distinct text it showed:
/// what a UI bound to `runningReply` would have rendered.
@MainActor
struct LiveReplyObserver {
    /// Distinct non-empty texts of the running reply, in the order they were seen.
    private(set) var texts: [String] = []
    /// Ids the running reply row had (one, if the row is stable).
    private(set) var replyIds: [String] = []
    /// Every state of the reply row seen while running, for activity assertions.
    private(set) var snapshots: [TranscriptEntry] = []

    /// Whether each text extends the one before it.
    var isGrowing: Bool {
        zip(texts, texts.dropFirst()).allSatisfy { $1.count > $0.count && $1.hasPrefix($0) }
    }

    /// Records the running reply on every change the view model publishes, as a UI bound to it would
    /// re-render, until `isRunning` is false (or `timeout`, a bound for a loaded machine, where a reply
    /// has been seen to take over 10 s). Observation rather than polling: a state
    /// that lives for one main-actor turn (a rewrite the final event replaces at once) is still seen.
    static func watch(_ viewModel: ChatViewModel, timeout: Duration = .seconds(30)) async -> LiveReplyObserver {
        var observer = LiveReplyObserver()
        let deadline = ContinuousClock.now + timeout
        while viewModel.isRunning, ContinuousClock.now < deadline {
            if let reply = viewModel.runningReply { observer.record(reply) }
            await nextChange(of: viewModel)
        }
        return observer
    }

    /// Suspends until the view model's transcript changes (or 50 ms pass, to re-check the deadline).
    private static func nextChange(of viewModel: ChatViewModel) async {
        let signal = AsyncStream<Void>.makeStream()
        withObservationTracking {
            _ = viewModel.transcript
        } onChange: {
            signal.continuation.yield()
        }
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(50))
            signal.continuation.yield()
        }
        var iterator = signal.stream.makeAsyncIterator()
        _ = await iterator.next()
        timer.cancel()
    }

    mutating func record(_ reply: TranscriptEntry) {
        if snapshots.last != reply { snapshots.append(reply) }
        if !replyIds.contains(reply.id) { replyIds.append(reply.id) }
        let text = reply.text
        if !text.isEmpty, texts.last != text { texts.append(text) }
    }
}
