import Logging
import OpenClawChat
import OpenClawStore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The terminal client's transcript database (`transcripts.sqlite` in the state directory).
///
/// Opening never stops the chat: a damaged file has already been moved aside by the store, its queued
/// messages put back (the user is told where the file went and what became of them), and a database
/// that cannot be used at all (read-only, permissions, a directory in its place) is left untouched —
/// the session runs on an in-memory store with a warning, and the messages queued in the file wait
/// there for a later session.
enum LocalStore {
    /// The databases this process opened, for ``closeAll()``.
    private static let opened = Mutex<[SQLiteChatStore]>([])

    /// Closes every database this process opened, when its command is done: a database left open leaves
    /// its WAL behind, and the next launch then reads the whole file before anything else.
    static func closeAll() {
        let stores = opened.withLock { opened in
            defer { opened = [] }
            return opened
        }
        for store in stores { store.close() }
    }

    /// ``open(_:terminal:logger:)`` on a thread of its own: opening and migrating SQLite blocks, and the
    /// caller's thread may be an event loop with a connection to carry meanwhile (see `EarlyConnect`).
    static func openAside(_ state: StateDirectory, terminal: Terminal, logger: Logger) async -> any ChatStore {
        await BlockingWork.run { open(state, terminal: terminal, logger: logger) }
    }

    static func open(_ state: StateDirectory, terminal: Terminal, logger: Logger) -> any ChatStore {
        do {
            let store = try SQLiteChatStore(path: state.databaseFile, logger: logger)
            opened.withLock { $0.append(store) }
            if let recovery = store.recovery {
                terminal.errorLine(terminal.styled(recovery.warning, .yellow))
            }
            return store
        } catch {
            terminal.error(
                "The local transcript database could not be opened: \(error).",
                hint: "Fix the cause and start again: messages queued in it are kept there and will be delivered "
                    + "then. This session keeps new messages in memory only."
            )
            return InMemoryChatStore()
        }
    }
}
