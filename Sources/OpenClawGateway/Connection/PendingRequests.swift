import Foundation
import OpenClawProtocol

/// Requests sent and not yet answered, matched by id. Each is resolved exactly once: by its response,
/// its timeout, its cancellation, or the end of the socket.
struct PendingRequests {
    typealias Completion = CheckedContinuation<Result<ResponseFrame, GatewayError>, Never>

    private struct Entry {
        let method: String
        let generation: Int
        let continuation: Completion
        var timeout: Task<Void, Never>?
    }

    private var entries: [String: Entry] = [:]

    var count: Int { entries.count }

    mutating func add(id: String, method: String, generation: Int, continuation: Completion) {
        entries[id] = Entry(method: method, generation: generation, continuation: continuation)
    }

    mutating func setTimeout(id: String, _ task: Task<Void, Never>) {
        if entries[id] == nil {
            task.cancel()
        } else {
            entries[id]?.timeout = task
        }
    }

    func contains(_ id: String) -> Bool { entries[id] != nil }

    func method(of id: String) -> String? { entries[id]?.method }

    /// Resolves one request; false when no such request is pending (a late or unknown response).
    @discardableResult
    mutating func resolve(id: String, with result: Result<ResponseFrame, GatewayError>) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        entry.timeout?.cancel()
        entry.continuation.resume(returning: result)
        return true
    }

    /// Fails every request (the socket is gone): nothing waits for an answer that cannot come.
    mutating func failAll(with error: GatewayError) {
        let all = entries
        entries.removeAll()
        for entry in all.values {
            entry.timeout?.cancel()
            entry.continuation.resume(returning: .failure(error))
        }
    }
}

/// Random lower-case UUIDs: request ids, and the idempotency keys that double as run ids.
public enum RequestID {
    public static func make() -> String { UUID().uuidString.lowercased() }
}
