import Foundation
import Logging
import OpenClawChat
import OpenClawStore

/// The terminal client's transcript database (`transcripts.sqlite` in the state directory).
///
/// Opening never stops the chat: a damaged file has already been moved aside by the store, its queued
/// messages put back (the user is told where the file went and what became of them), and a database
/// that cannot be used at all (read-only, permissions, a directory in its place) is left untouched —
/// the session runs on an in-memory store with a warning, and the messages queued in the file wait
/// there for a later session.
enum LocalStore {
    /// ``open(_:terminal:logger:)`` on a thread of its own: opening and migrating SQLite blocks, and the
    /// caller's thread may be an event loop with a connection to carry meanwhile (see `EarlyConnect`).
    static func openAside(_ state: StateDirectory, terminal: Terminal, logger: Logger) async -> any ChatStore {
        await BlockingWork.run { open(state, terminal: terminal, logger: logger) }
    }

    static func open(_ state: StateDirectory, terminal: Terminal, logger: Logger) -> any ChatStore {
        do {
            let store = try SQLiteChatStore(path: state.databaseFile, logger: logger)
            if let recovery = store.recovery {
                terminal.errorLine(terminal.styled(warning(recovery), .yellow))
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

    /// One paragraph: what happened to the file, where it went, and what became of the queued messages.
    static func warning(_ recovery: StoreRecovery) -> String {
        let what =
            switch recovery.cause {
            case .notADatabase, .damaged, .foreignSchema: "was unreadable"
            case .emptied: "was found empty"
            }
        var text = "The local transcript database \(what) and was moved to \(recovery.movedTo.path). "
        let recovered = recovery.recoveredMessages
        if recovered > 0 {
            text +=
                "\(count(recovered, "queued message")) \(recovered == 1 ? "was" : "were") recovered and "
                + "will be delivered. "
        }
        switch recovery.lostMessages {
        case let lost? where lost > 0:
            text += "\(count(lost, "queued message")) could not be recovered. "
        case nil:
            text += "Queued messages it may have held could not be read. "
        default:
            break
        }
        return text + "Conversations will be read again from the gateway."
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
