import OpenClawProtocol

/// The gateway's memory of finished `chat.send` keys, as upstream keeps it: an entry is written when a
/// run ends and answers a repeat of the key (`status:"ok"`, or the cached failure) instead of a second
/// run — for a limited time and a limited number of keys. Upstream: `context.dedupe` with key
/// `chat:<idempotencyKey>`, `DEDUPE_TTL_MS` (5 min) and `DEDUPE_MAX` (1,000), pruned by the
/// maintenance timer (`src/gateway/server-methods/chat.ts`, `src/gateway/server-constants.ts`).
///
/// After the entry is gone the key is unknown again: a resend starts a new run. A client must not
/// count on deduplication beyond the window.
struct IdempotencyCache: Sendable {
    enum Outcome: Sendable, Equatable {
        case ok
        /// The run failed; a repeat is answered `ok:false` with `{runId, status:"error", summary}`.
        case error(summary: String)
    }

    private struct Entry: Sendable {
        var outcome: Outcome
        var storedAtMs: Int
    }

    let ttlMs: Int
    let maxEntries: Int
    private var entries: [String: Entry] = [:]
    /// Keys oldest first, for eviction by count.
    private var order: [String] = []

    init(ttlMs: Int, maxEntries: Int) {
        self.ttlMs = max(0, ttlMs)
        self.maxEntries = max(1, maxEntries)
    }

    mutating func store(_ key: String, _ outcome: Outcome, nowMs: Int) {
        prune(nowMs: nowMs)
        if entries[key] != nil { order.removeAll { $0 == key } }
        entries[key] = Entry(outcome: outcome, storedAtMs: nowMs)
        order.append(key)
        if order.count > maxEntries {
            let excess = order.count - maxEntries
            for evicted in order.prefix(excess) { entries[evicted] = nil }
            order.removeFirst(excess)
        }
    }

    /// The remembered outcome of `key`, nil when it was never seen or has been forgotten.
    mutating func outcome(of key: String, nowMs: Int) -> Outcome? {
        prune(nowMs: nowMs)
        return entries[key]?.outcome
    }

    var count: Int { entries.count }

    private mutating func prune(nowMs: Int) {
        var expired = 0
        for key in order {
            guard let entry = entries[key], nowMs - entry.storedAtMs >= ttlMs else { break }
            entries[key] = nil
            expired += 1
        }
        if expired > 0 { order.removeFirst(expired) }
    }
}
