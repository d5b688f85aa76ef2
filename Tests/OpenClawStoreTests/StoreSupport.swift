import Foundation
import Logging
import OpenClawChat
import OpenClawProtocol
import OpenClawStore
import Synchronization
import Testing

/// A fresh temporary folder; the test removes it with ``remove()``.
struct TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "openclaw-store-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The stores the conformance tests run against.
enum StoreKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case inMemory
    case sqliteInMemory
    case sqliteFile

    var testDescription: String { rawValue }

    func make(limits: ChatStoreLimits = .init()) throws -> (store: any ChatStore, cleanup: @Sendable () -> Void) {
        switch self {
        case .inMemory:
            return (InMemoryChatStore(), {})
        case .sqliteInMemory:
            return (try SQLiteChatStore(inMemoryWithLimits: limits), {})
        case .sqliteFile:
            let folder = try TemporaryFolder()
            return (try SQLiteChatStore(path: folder.file("chat.sqlite"), limits: limits), { folder.remove() })
        }
    }
}

/// A stored text message whose history key, id and text derive from `key`.
func stored(_ key: String, text: String? = nil, role: ChatRole = .user, timestampMs: Int? = nil) -> StoredMessage {
    StoredMessage(
        id: "row-\(key)", historyKey: key,
        message: ChatMessage(
            role: role, content: [.text(text ?? "message \(key)")], timestampMs: timestampMs,
            entry: ChatTranscriptEntryInfo(id: key)))
}

func page(_ keys: String...) -> [StoredMessage] { keys.map { stored($0) } }

extension ChatStore {
    /// The history keys of a session, in stored order.
    func keys(gateway: String = "gw", sessionKey: String = "main") async throws -> [String] {
        try await latestMessages(gateway: gateway, sessionKey: sessionKey, limit: .max).map(\.historyKey)
    }
}

/// A log handler that keeps what it is given, to check what the store says.
final class CapturedLog: Sendable {
    private let entries = Mutex<[(level: Logger.Level, message: String)]>([])

    var records: [(level: Logger.Level, message: String)] { entries.withLock { $0 } }

    var logger: Logger {
        Logger(label: "test.store") { _ in Handler(log: self) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.entries.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
