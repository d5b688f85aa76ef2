import OpenClawGateway
import OpenClawProtocol

/// What ``ChatSession/showAll(_:)`` did.
public enum ShowAllOutcome: Sendable, Equatable {
    /// The row now shows the whole message.
    case shown
    /// The row is not shortened (or no longer there): nothing to fetch.
    case notTruncated
    /// The gateway does not have `chat.message.get` (before summer 2026): the row stays as it is.
    case unsupported
    /// The gateway would not give it: `not_found`, `oversized` or `not_visible`.
    case unavailable(reason: String)
    /// The request failed (the alert says why).
    case failed
}

extension ChatSession {
    /// How many whole messages are kept for display; older ones go back to their page copies.
    static let fullMessageLimit = 32

    /// Shows a row `chat.history` shortened (``TranscriptEntry/isTruncated``) whole: fetches it with
    /// `chat.message.get` and reads the page again, which then carries the whole text (the catch-up
    /// costs one small round trip and keeps the transcript's usual reconciling). Kept for later pages,
    /// and in the store, until `fullMessageLimit` newer ones push it out.
    public func showAll(_ entryID: TranscriptEntry.ID) async -> ShowAllOutcome {
        guard let entry = messages.first(where: { $0.id == entryID }), entry.isTruncated,
            let messageId = entry.message?.entry?.id
        else { return .notTruncated }
        guard await client.supportsFullMessages else { return .unsupported }
        let result: ChatMessageGetResult
        do {
            result = try await client.fullMessage(sessionKey: currentSessionKey, messageId: messageId)
        } catch {
            raise(error)
            return .failed
        }
        switch result {
        case .unavailable(let reason): return .unavailable(reason: reason)
        case .found(var message):
            // The whole message keeps the row's identity even when the answer leaves `__openclaw` out.
            message.entry = message.entry ?? entry.message?.entry
            fullMessages.removeAll { $0.id == messageId }
            fullMessages.append((messageId, message))
            if fullMessages.count > Self.fullMessageLimit { fullMessages.removeFirst() }
            await refreshHistoryAndWait()
            return .shown
        }
    }

    /// `page` with each message fetched whole in place of its shortened copy.
    func showingFullMessages(in page: ChatHistoryPage) -> ChatHistoryPage {
        guard !fullMessages.isEmpty else { return page }
        var page = page
        page.messages = page.messages.map { message in
            guard let id = message.entry?.id, let full = fullMessages.last(where: { $0.id == id }) else {
                return message
            }
            return full.message
        }
        return page
    }
}
