import Foundation
import OpenClawProtocol

/// Requests sent and not yet answered, matched by id. Each is resolved exactly once: by its response,
/// its timeout, its cancellation, or the end of the socket.
///
/// Timeouts are deadlines kept here, not a task per request: the connection runs one timer for the
/// earliest deadline (``earliestDeadline``) and resolves what has expired (``expire(at:)``). Creating and
/// cancelling a task for every request cost more than the rest of a `health` round trip's bookkeeping.
struct PendingRequests {
    typealias Completion = CheckedContinuation<Result<ResponseFrame, GatewayError>, Never>

    private struct Entry {
        let method: String
        let generation: Int
        let continuation: Completion
        let deadline: ContinuousClock.Instant
        let timeoutMs: Int
    }

    private var entries: [String: Entry] = [:]

    var count: Int { entries.count }

    /// Adds a request that times out `timeout` from now.
    mutating func add(id: String, method: String, generation: Int, timeout: Duration, continuation: Completion) {
        entries[id] = Entry(
            method: method, generation: generation, continuation: continuation,
            deadline: ContinuousClock.now + timeout, timeoutMs: timeout.milliseconds)
    }

    /// When the request times out; nil when it is not pending.
    func deadline(of id: String) -> ContinuousClock.Instant? { entries[id]?.deadline }

    /// When the next pending request times out; nil when none is pending.
    var earliestDeadline: ContinuousClock.Instant? {
        entries.values.lazy.map(\.deadline).min()
    }

    /// Fails every request whose deadline has passed with a timeout naming its method.
    mutating func expire(at now: ContinuousClock.Instant) {
        let expired = entries.filter { $0.value.deadline <= now }
        for (id, entry) in expired {
            entries.removeValue(forKey: id)
            entry.continuation.resume(returning: .failure(.timeout(method: entry.method, afterMs: entry.timeoutMs)))
        }
    }

    func contains(_ id: String) -> Bool { entries[id] != nil }

    func method(of id: String) -> String? { entries[id]?.method }

    /// Resolves one request; false when no such request is pending (a late or unknown response).
    @discardableResult
    mutating func resolve(id: String, with result: Result<ResponseFrame, GatewayError>) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        entry.continuation.resume(returning: result)
        return true
    }

    /// Fails every request (the socket is gone): nothing waits for an answer that cannot come.
    mutating func failAll(with error: GatewayError) {
        let all = entries
        entries.removeAll()
        for entry in all.values {
            entry.continuation.resume(returning: .failure(error))
        }
    }
}

/// Random lower-case UUIDs (version 4): request ids, and the idempotency keys that double as run ids.
///
/// Made from the system's secure generator rather than Foundation's `UUID()`, which on Linux opens and
/// reads `/dev/urandom` for every id: two system calls and a file descriptor on each request, a tenth of
/// a `health` round trip's client CPU.
public enum RequestID {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return format(high: generator.next(), low: generator.next())
    }

    /// The UUID of these 128 bits, with the version (4) and variant (RFC 9562) bits set.
    static func format(high: UInt64, low: UInt64) -> String {
        let high = (high & ~0xF000) | 0x4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, shift) in stride(from: 124, through: 0, by: -4).enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            let word = shift >= 64 ? high >> UInt64(shift - 64) : low >> UInt64(shift)
            text.append(digits[Int(word & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
