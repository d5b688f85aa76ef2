import OpenClawProtocol

@testable import OpenClawChat

/// An in-memory store that counts reads of the stored transcript, logs the outbox's writes, and can hold
/// `record` or the outbox's writes back: for the view model tests that watch what is asked of the store,
/// or when.
actor ObservedStore: ChatStore {
    let base: InMemoryChatStore
    private(set) var transcriptReads = 0
    private(set) var recordsHeld = 0
    private var holdRecords = false
    private var held: [CheckedContinuation<Void, Never>] = []
    /// Every outbox write, in order: `"enqueue <id> <state> <attempts>"`, `"update …"`, `"remove <id>"`.
    private(set) var outboxWrites: [String] = []
    /// Outbox writes waiting (see ``holdOutboxWrites(_:)``).
    private(set) var outboxWritesHeld = 0
    private var holdOutbox = false
    private var heldOutbox: [CheckedContinuation<Void, Never>] = []

    init(_ base: InMemoryChatStore = InMemoryChatStore()) { self.base = base }

    /// While true, every `record` waits; false lets the waiting ones through.
    func hold(_ hold: Bool) {
        holdRecords = hold
        if !hold {
            for waiter in held { waiter.resume() }
            held = []
        }
    }

    func latestMessages(gateway: String, sessionKey: String, limit: Int) async -> [StoredMessage] {
        transcriptReads += 1
        return await base.latestMessages(gateway: gateway, sessionKey: sessionKey, limit: limit)
    }
    func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) async {
        if holdRecords {
            recordsHeld += 1
            await withCheckedContinuation { held.append($0) }
        }
        await base.record(messages, gateway: gateway, sessionKey: sessionKey)
    }
    func search(_ query: String, gateway: String?, limit: Int) async -> [SearchHit] {
        await base.search(query, gateway: gateway, limit: limit)
    }
    /// While true, every outbox write waits before it is applied; false lets the waiting ones through.
    func holdOutboxWrites(_ hold: Bool) {
        holdOutbox = hold
        if !hold {
            for waiter in heldOutbox { waiter.resume() }
            heldOutbox = []
        }
    }

    private func outboxWrite(_ entry: String) async {
        outboxWrites.append(entry)
        guard holdOutbox else { return }
        outboxWritesHeld += 1
        await withCheckedContinuation { heldOutbox.append($0) }
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
