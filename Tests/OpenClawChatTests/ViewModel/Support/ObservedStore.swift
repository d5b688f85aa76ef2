import OpenClawProtocol

@testable import OpenClawChat

/// An in-memory store that counts reads of the stored transcript, logs the outbox's writes, and can hold
/// `record` or the outbox's writes back: for the view model tests that watch what is asked of the store,
/// or when.
actor ObservedStore: ChatStore {
    let base: InMemoryChatStore
    private(set) var transcriptReads = 0
    private var records = Gate()
    private var outboxWritesGate = Gate()
    /// Every outbox write, in order: `"enqueue <id> <state> <attempts>"`, `"update …"`, `"remove <id>"`.
    private(set) var outboxWrites: [String] = []

    /// Calls held while closed, let through when opened; counts how many were ever held.
    private struct Gate {
        var isClosed = false
        var heldCount = 0
        var waiting: [CheckedContinuation<Void, Never>] = []

        mutating func set(closed: Bool) {
            isClosed = closed
            guard !closed else { return }
            for waiter in waiting { waiter.resume() }
            waiting = []
        }
    }

    /// `record` calls held so far (see ``hold(_:)``).
    var recordsHeld: Int { records.heldCount }
    /// Outbox writes held so far (see ``holdOutboxWrites(_:)``).
    var outboxWritesHeld: Int { outboxWritesGate.heldCount }

    init(_ base: InMemoryChatStore = InMemoryChatStore()) { self.base = base }

    /// While true, every `record` waits; false lets the waiting ones through.
    func hold(_ hold: Bool) { records.set(closed: hold) }

    func latestMessages(gateway: String, sessionKey: String, limit: Int) async -> [StoredMessage] {
        transcriptReads += 1
        return await base.latestMessages(gateway: gateway, sessionKey: sessionKey, limit: limit)
    }
    func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) async {
        if records.isClosed {
            records.heldCount += 1
            await withCheckedContinuation { records.waiting.append($0) }
        }
        await base.record(messages, gateway: gateway, sessionKey: sessionKey)
    }
    func search(_ query: String, gateway: String?, limit: Int) async -> [SearchHit] {
        await base.search(query, gateway: gateway, limit: limit)
    }
    /// While true, every outbox write waits before it is applied; false lets the waiting ones through.
    func holdOutboxWrites(_ hold: Bool) { outboxWritesGate.set(closed: hold) }

    private func outboxWrite(_ entry: String) async {
        outboxWrites.append(entry)
        guard outboxWritesGate.isClosed else { return }
        outboxWritesGate.heldCount += 1
        await withCheckedContinuation { outboxWritesGate.waiting.append($0) }
    }

    func enqueue(_ message: OutboxMessage) async {
        await outboxWrite("enqueue \(message.id) \(message.state) \(message.attempts)")
        await base.enqueue(message)
    }
    func update(_ message: OutboxMessage) async {
        await outboxWrite("update \(message.id) \(message.state) \(message.attempts)")
        await base.update(message)
    }
    func removeFromOutbox(id: String, gateway: String) async {
        await outboxWrite("remove \(id)")
        await base.removeFromOutbox(id: id, gateway: gateway)
    }
    func outbox(gateway: String) async -> [OutboxMessage] { await base.outbox(gateway: gateway) }
}
