import OpenClawChat

/// Watches a chat session's running reply until the run ends, recording each distinct text it showed:
/// what a screen following `runningReply` would have rendered.
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

    /// Records the running reply on every change the session publishes, as a screen following it would
    /// re-render, until `isRunning` is false (or `timeout`, a bound for a loaded machine, where a reply
    /// has been seen to take over 10 s). Changes rather than polling: a state that lives for one
    /// main-actor turn (a rewrite the final event replaces at once) is still seen.
    static func watch(_ session: ChatSession, timeout: Duration = .seconds(30)) async -> LiveReplyObserver {
        var observer = LiveReplyObserver()
        var changes = session.changes(of: .transcript).makeAsyncIterator()
        let deadline = ContinuousClock.now + timeout
        while session.isRunning, ContinuousClock.now < deadline {
            if let reply = session.runningReply { observer.record(reply) }
            _ = await changes.next(timeout: .milliseconds(50))
        }
        return observer
    }

    mutating func record(_ reply: TranscriptEntry) {
        if snapshots.last != reply { snapshots.append(reply) }
        if !replyIds.contains(reply.id) { replyIds.append(reply.id) }
        let text = reply.text
        if !text.isEmpty, texts.last != text { texts.append(text) }
    }
}
