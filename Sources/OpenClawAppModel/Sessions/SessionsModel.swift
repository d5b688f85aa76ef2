import Observation
import OpenClawChat
import OpenClawProtocol

/// One row of the session list.
public struct SessionRow: Sendable, Equatable, Identifiable {
    public let key: String
    public let title: String
    public let preview: String?
    /// Last activity, epoch ms.
    public let updatedAtMs: Int?
    public let isCurrent: Bool
    /// A run is active in it right now (v4 gateways say so).
    public let isRunning: Bool

    public var id: String { key }

    init(_ summary: SessionSummary, isCurrent: Bool) {
        key = summary.key
        title = summary.title
        preview = summary.lastMessagePreview
        updatedAtMs = summary.updatedAt
        self.isCurrent = isCurrent
        isRunning = summary.hasActiveRun ?? false
    }

    init(currentKey: String) {
        key = currentKey
        title = currentKey
        preview = nil
        updatedAtMs = nil
        isCurrent = true
        isRunning = false
    }
}

/// The session picker: the gateway's sessions, the current one marked, switching through the chat
/// view model (which shows the stored transcript of the new session at once).
@MainActor
@Observable
public final class SessionsModel {
    public private(set) var isRefreshing = false
    @ObservationIgnored private let chat: ChatViewModel

    public init(chat: ChatViewModel) {
        self.chat = chat
    }

    /// The gateway's sessions in its order (latest activity first); the current session is always
    /// listed, even before the gateway has stored anything for it.
    public var rows: [SessionRow] {
        let matcher = chat.transcript.sessionKeys
        let current = chat.currentSessionKey
        let rows = chat.sessions.map { SessionRow($0, isCurrent: matcher.matches($0.key, current)) }
        return rows.contains(where: \.isCurrent) ? rows : [SessionRow(currentKey: current)] + rows
    }

    public func refresh() async {
        isRefreshing = true
        defer { isRefreshing = false }
        await chat.session.refreshSessions()
    }

    /// Follows another session; choosing the current one (under any of its names) does nothing.
    public func select(_ key: String) async {
        guard !chat.transcript.sessionKeys.matches(key, chat.currentSessionKey) else { return }
        await chat.session.switchSession(to: key)
    }
}
