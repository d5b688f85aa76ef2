extension ChatSession {
    /// The key of the session this chat shows: now, then after every switch (each once), until the chat is
    /// gone or the stream is dropped. For what follows the person's session beside the chat (the approvals
    /// audience), without that follower knowing the chat.
    ///
    /// Only the latest key waits for a slow reader: a follower cares where the chat is, not where it was.
    public func currentSessionKeys() -> AsyncStream<String> {
        let changes = changes(of: .currentSession)
        let first = currentSessionKey
        let (keys, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield(first)
        // Unstructured: it lives as long as the stream it feeds; cancelled when the reader stops reading.
        let watch = Task { @MainActor [weak self] in
            var last = first
            for await _ in changes {
                guard let key = self?.currentSessionKey else { break }
                if key != last {
                    continuation.yield(key)
                    last = key
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in watch.cancel() }
        return keys
    }
}
