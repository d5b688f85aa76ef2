/// One `chat.history` answer the test gateway sent, for tests that count what a client read.
public struct HistoryAnswer: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A tail page (the request had no `cursor`).
        case tail
        /// A catch-up with the messages since the cursor.
        case delta
        /// A catch-up answered `{kind: "reset"}`.
        case reset
    }

    public var kind: Kind
    /// How many messages the answer carried.
    public var messageCount: Int

    public init(kind: Kind, messageCount: Int) {
        self.kind = kind
        self.messageCount = messageCount
    }
}
