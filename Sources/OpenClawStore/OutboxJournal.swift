import OpenClawChat
import OpenClawProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A second copy of the outbox, outside the database: `<database>-outbox`, a small append-only file.
///
/// The outbox holds what only this device has (messages typed but not yet confirmed by the gateway),
/// and a damaged database can lose any page, including the outbox's. So every outbox change is also
/// appended here, inside the same SQLite write transaction (which also serialises writers across
/// processes): a failed append rolls the change back, and a change that is in the database is in the
/// journal. Recovery replays the journal instead of hoping the outbox's pages survived.
///
/// One record a line, `<fnv1a64 hex> <json>`: a record torn by a crash, or scribbled over, fails its
/// checksum and is skipped; every record carries the outbox's size after it (`live`), so a replay
/// that comes up short knows exactly how many messages it could not recover. Each append is fsynced
/// (outbox changes are a few per message sent, and they are the data that must not be lost). The
/// file only needs the live rows, so when it has grown past twice its last compacted size (plus
/// 64 KiB) it is rewritten from the database's outbox: to a temporary file, fsynced, renamed over.
/// It is created 0600 like the database.
final class OutboxJournal: Sendable {
    /// One outbox change.
    enum Entry: Equatable {
        case put(OutboxMessage)
        case remove(gateway: String, id: String)
    }

    /// What a replay found.
    struct Replay: Equatable {
        /// The live messages, in the order they were first enqueued.
        var messages: [OutboxMessage] = []
        /// Keys (`gateway`, `id`) the journal saw removed: a stale copy elsewhere must not bring them back.
        var removed: Set<[String]> = []
        /// The outbox's size after the last intact record; nil when no record was intact.
        var expectedCount: Int?
        /// Records that failed their checksum or did not parse.
        var damagedRecords = 0
        /// How many records the damaged stretches could have held: each stretch of consecutive damaged
        /// lines, by its bytes over the smallest record a message makes (at least one a stretch). Garbage
        /// may have eaten the newlines between records, so the lines themselves are no bound.
        var damagedCapacity = 0

        /// Live messages the journal knew of but could not reproduce, as far as its intact records say.
        var lostCount: Int { max(0, (expectedCount ?? 0) - messages.count) }

        /// At most this many more may be lost: a damaged record may have been a new message's `put`
        /// (after the last intact record, the count that would show it is gone too).
        var possiblyLostBeyondCount: Int { damagedCapacity }
    }

    let path: String
    /// Where the files of outbox messages are copied: a replayed message's attachments are read there.
    let spool: OutboxSpool
    /// Size after the last compaction (or at open): the file is compacted when it doubles.
    private let baseline: Mutex<Int>
    private static let slack = 64 * 1024

    init(databasePath: String) {
        path = databasePath + "-outbox"
        spool = OutboxSpool(databasePath: databasePath)
        baseline = Mutex(StoreFile.size(databasePath + "-outbox") ?? 0)
    }

    /// Whether something is at the journal's path (a file, or something in its way).
    var exists: Bool { StoreFile.exists(path) }

    /// False when something other than a file is in the journal's place: the store cannot keep its
    /// outbox safe, and moving the database would not help.
    var isUsable: Bool { !exists || StoreFile.size(path) != nil }

    /// Appends `entry`, after which the outbox holds `count` messages. Returns whether the file has
    /// grown enough to be compacted.
    func append(_ entry: Entry, count: Int) throws(StoreFile.Failure) -> Bool {
        let record = Self.record(OutboxJournalCoding.json(entry, count: count))
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreFile.Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        // A torn last record has no newline: end it, so this record starts a line of its own.
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, status.st_size - 1) == 1, last != UInt8(ascii: "\n") {
                bytes.append(UInt8(ascii: "\n"))
            }
        }
        bytes += record
        try StoreFile.writeAll(bytes, to: descriptor, path: path)
        guard fsync(descriptor) == 0 else { throw StoreFile.Failure(operation: "fsync", path: path, code: errno) }
        let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        return size > 2 * baseline.withLock { $0 } + Self.slack
    }

    /// Replaces the journal with a snapshot of `messages` (the whole outbox, in delivery order).
    func rewrite(_ messages: [OutboxMessage]) throws(StoreFile.Failure) {
        var bytes = Self.record(OutboxJournalCoding.snapshotHeader(count: messages.count))
        for (index, message) in messages.enumerated() {
            bytes += Self.record(OutboxJournalCoding.json(.put(message), count: index + 1))
        }
        try StoreFile.replaceAtomically(path, with: bytes)
        baseline.withLock { $0 = bytes.count }
    }

    /// The journal's outbox; nil when there is no journal file (or it cannot be read at all).
    func replay() -> Replay? {
        guard let bytes = StoreFile.contents(path) else { return nil }
        var replay = Replay()
        var order: [[String]] = []
        var live: [[String]: OutboxMessage] = [:]
        var damagedStretch = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let (entry, count) = Self.parse(line, spool: spool) else {
                replay.damagedRecords += 1
                damagedStretch += line.count + 1
                continue
            }
            replay.damagedCapacity += Self.capacity(ofDamaged: damagedStretch)
            damagedStretch = 0
            replay.expectedCount = count
            switch entry {
            case nil:
                order = []
                live = [:]
            case .put(let message)?:
                let key = [message.gateway, message.id]
                if live[key] == nil { order.append(key) }
                live[key] = message
                replay.removed.remove(key)
            case .remove(let gateway, let id)?:
                live[[gateway, id]] = nil
                order.removeAll { $0 == [gateway, id] }
                replay.removed.insert([gateway, id])
            }
        }
        replay.damagedCapacity += Self.capacity(ofDamaged: damagedStretch)
        replay.messages = order.compactMap { live[$0] }
        return replay
    }

    /// The fewest bytes a `put` record takes (hash, space, the JSON of a message with empty strings,
    /// newline): no message's record is smaller.
    static let smallestPutRecord: Int = {
        let message = OutboxMessage(id: "", gateway: "", sessionKey: "", text: "", createdAtMs: 0)
        return OutboxJournalCoding.json(.put(message), count: 0).count + 18
    }()

    /// How many records a damaged stretch of `bytes` could have held.
    private static func capacity(ofDamaged bytes: Int) -> Int {
        bytes == 0 ? 0 : max(1, bytes / smallestPutRecord)
    }

    /// `<hash> <json>\n`.
    private static func record(_ json: [UInt8]) -> [UInt8] {
        Array(StableHash.hex(of: json).utf8) + [UInt8(ascii: " ")] + json + [UInt8(ascii: "\n")]
    }

    /// The record's entry (nil for a snapshot header) and count; nil when the line is damaged.
    private static func parse(_ line: ArraySlice<UInt8>, spool: OutboxSpool) -> (Entry?, Int)? {
        guard line.count > 17, line[line.startIndex + 16] == UInt8(ascii: " ") else { return nil }
        let json = line.dropFirst(17)
        guard String(decoding: line.prefix(16), as: UTF8.self) == StableHash.hex(of: json) else { return nil }
        return OutboxJournalCoding.parse(json, spool: spool)
    }
}
