import Foundation
import Logging
import OpenClawChat
import OpenClawStore

/// The terminal client's transcript database (`transcripts.sqlite` in the state directory).
///
/// Opening never stops the chat: a corrupt file has already been moved aside by the store (the user is
/// told where), and a database that cannot be opened at all (read-only disk, permissions) leaves the
/// session on an in-memory store with a warning, so the user can still talk to their agent.
enum LocalStore {
    static func open(_ state: StateDirectory, terminal: Terminal, logger: Logger) -> any ChatStore {
        do {
            let store = try SQLiteChatStore(path: state.databaseFile, logger: logger)
            if let movedTo = store.recoveredFromCorruption {
                terminal.errorLine(
                    terminal.styled(
                        "The local transcript cache was unreadable and was moved to \(movedTo.path); "
                            + "conversations will be read again from the gateway.",
                        .yellow
                    )
                )
            }
            return store
        } catch {
            terminal.error(
                "The local transcript database could not be opened (\(error)).",
                hint: "Check the state directory (--state-dir); this session keeps messages in memory only."
            )
            return InMemoryChatStore()
        }
    }

}
