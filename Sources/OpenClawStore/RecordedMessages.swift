import OpenClawChat
import Synchronization

/// What the store's last committed writes left in the `messages` rows of a few sessions, by history key.
///
/// A chat records its whole history page after every fetch (each reply ends with one), and most of
/// the page is what the rows already hold. Comparing with this memory skips those messages without
/// serialising them to JSON again (about 46k instructions a message, a whole page twice in `send`).
/// It is only a shortcut: a row is trusted only under the row id it was written to, and only after
/// its transaction committed (``SQLiteConnection/afterCommit(_:)``), so a rolled-back write or a row
/// deleted since is written again. Another process writing the same rows can make this one skip a
/// message the other changed; both copies came from the gateway's history, so nothing is lost.
final class RecordedMessages: Sendable {
    struct Row: Sendable, Equatable {
        var rowID: Int64
        var message: StoredMessage
    }

    private struct State {
        var sessions: [TranscriptWriter.Session: [String: Row]] = [:]
        /// Least recently recorded first.
        var order: [TranscriptWriter.Session] = []
    }

    /// Sessions remembered at once: the one in view and the few a chat confirms messages in.
    static let maximumSessions = 4

    private let state = Mutex(State())

    /// The rows remembered for `session`, by history key.
    func rows(in session: TranscriptWriter.Session) -> [String: Row] {
        state.withLock { $0.sessions[session] ?? [:] }
    }

    /// Replaces what is remembered of `session` with the page just committed.
    func remember(_ rows: [String: Row], in session: TranscriptWriter.Session) {
        state.withLock { state in
            state.order.removeAll { $0 == session }
            state.order.append(session)
            state.sessions[session] = rows
            while state.order.count > Self.maximumSessions {
                state.sessions[state.order.removeFirst()] = nil
            }
        }
    }
}
