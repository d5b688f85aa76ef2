import Observation
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol

/// The chat screen over a ``ChatViewModel``: bubbles, the connection banner, paging back through older
/// messages, and where the list should scroll.
///
/// The view model holds the conversation; this adds only what is about presenting it on a phone.
@MainActor
@Observable
public final class ChatScreenModel {
    /// A scroll the view should perform; a new ``id`` each time, so asking twice for the same row
    /// scrolls twice.
    public struct ScrollRequest: Sendable, Equatable {
        public let id: Int
        /// The row to show.
        public let rowID: String
        /// Bottom of the list (latest) rather than the row's centre (a search result).
        public let toBottom: Bool
    }

    public let chat: ChatViewModel
    /// Photos and files chosen for the next message.
    public let attachments: ComposerAttachments
    /// When each running step was first seen here: the live line's elapsed time survives its row being
    /// scrolled away and built again.
    public let stepClock = StepClock()
    /// Generated images of the bubbles, fetched when shown and not kept long.
    public let images: GeneratedImages
    /// Set by the view as the list scrolls: whether the latest row is in sight.
    public var isAtBottom = true
    /// What the latest "Show all" did (a gateway without `chat.message.get` leaves the row shortened).
    public private(set) var lastShowAll: ShowAllOutcome?
    public private(set) var isLoadingOlder = false
    /// The session whose beginning paging back reached (it brought nothing new).
    private var beginningShown: String?
    public private(set) var scrollRequest: ScrollRequest?
    /// The row a search result pointed at, to highlight.
    public private(set) var highlightedRowID: String?

    @ObservationIgnored private var nextScrollID = 0

    public init(chat: ChatViewModel) {
        self.chat = chat
        images = GeneratedImages(chat: chat)
        attachments = ComposerAttachments { [chat] in await chat.session.attachmentLimits() }
    }

    public var rows: [MessageRowModel] { MessageRowModel.rows(for: chat.messages) }

    public var banner: ConnectionBanner? { ConnectionBanner(chat.connectionState) }

    /// How full the session's context is; nil until the gateway reports it (older gateways never do).
    public var contextMeter: ContextMeter? { ContextMeter(chat.usage) }

    /// The header: the agent's name when the gateway told it, else the session's title.
    public var title: String {
        if let name = chat.agentIdentity?.name, !name.isEmpty { return name }
        let key = chat.currentSessionKey
        let matcher = chat.transcript.sessionKeys
        return chat.sessions.first { matcher.matches($0.key, key) }?.title ?? key
    }

    /// Text, or files alone (a photo needs no caption).
    public var canSend: Bool { !chat.composerText.allSatisfy(\.isWhitespace) || !attachments.isEmpty }

    /// While a reply runs the send button becomes a stop button.
    public var showsStopButton: Bool { chat.isRunning }

    public var showsJumpToLatest: Bool { !isAtBottom && !chat.messages.isEmpty }

    /// Changes whenever the latest row grows while the list follows the bottom, so the view keeps the
    /// streaming reply in sight; nil while the person reads further up (nothing pulls them away).
    public var followMarker: String? {
        guard isAtBottom, let last = chat.messages.last else { return nil }
        return "\(last.id):\(last.textUTF8Count):\(last.activity.count)"
    }

    /// The newest alert of the chat, to present.
    public var currentAlert: ChatAlert? { chat.alerts.last }

    /// Whether an alert is up; setting it to false dismisses the newest one (bind a dialog to it).
    public var isShowingAlert: Bool {
        get { chat.alerts.last != nil }
        set {
            if !newValue, let alert = chat.alerts.last { chat.session.dismissAlert(alert.id) }
        }
    }

    /// Whether scrolling to the top should fetch older messages.
    public var canLoadOlder: Bool {
        !isLoadingOlder && !reachedBeginning && chat.connectionState.isConnected && !chat.messages.isEmpty
    }

    /// Paging back brought nothing new: the current session's first message is shown.
    public var reachedBeginning: Bool { beginningShown == chat.currentSessionKey }

    // MARK: Actions

    /// The list scrolled: `distance` points between the bottom of what is visible and the end of the
    /// content. Within a thumb's width counts as at the bottom.
    public func scrolled(distanceFromBottom distance: Double) {
        let atBottom = distance < 48
        if atBottom != isAtBottom { isAtBottom = atBottom }
    }

    /// Sends the composer's text and scrolls to it (the person wants to see what they sent, even if
    /// they were reading further up).
    public func send() async {
        guard canSend else { return }
        if attachments.isEmpty {
            await chat.send()
        } else {
            let text = chat.composerText
            let files = attachments.take()
            chat.composerText = ""
            do {
                try await chat.session.send(text, attachments: files)
            } catch {
                // The limits changed since the files were chosen (another gateway, a reconnect): nothing
                // was queued; the text and files are put back with the reason.
                chat.composerText = text
                attachments.restore(files, refusal: error)
                return
            }
        }
        jumpToLatest()
    }

    public func stop() async { await chat.session.abort() }

    public func perform(_ action: MessageRowModel.Action, on row: MessageRowModel) async {
        switch action {
        case .retry: await chat.session.retry(messageID: row.id)
        case .discard: await chat.session.discard(messageID: row.id)
        case .showAll: lastShowAll = await chat.session.showAll(row.id)
        }
    }

    /// The list reached its top: fetch older messages, once at a time, until there are no more.
    public func loadOlder() async {
        guard canLoadOlder else { return }
        isLoadingOlder = true
        defer { isLoadingOlder = false }
        let key = chat.currentSessionKey
        let before = chat.messages.count
        let anchor = rows.first?.id
        await chat.session.loadOlder()
        guard key == chat.currentSessionKey else { return }
        if chat.messages.count <= before {
            beginningShown = key
        } else if let anchor {
            // Keep the row that was on top where it was, instead of jumping to the new top.
            requestScroll(to: anchor, toBottom: false)
        }
    }

    public func jumpToLatest() {
        guard let last = rows.last?.id else { return }
        highlightedRowID = nil
        requestScroll(to: last, toBottom: true)
    }

    /// Shows a message (a search result): switches to its session, pages back until it is loaded (as
    /// far as the gateway's history goes), scrolls to it and highlights it.
    public func reveal(messageID: String, sessionKey: String) async {
        if !chat.transcript.sessionKeys.matches(sessionKey, chat.currentSessionKey) {
            await chat.session.switchSession(to: sessionKey)
        }
        while chat.transcript.entry(id: messageID) == nil, canLoadOlder {
            await loadOlder()
        }
        guard chat.transcript.entry(id: messageID) != nil else { return }
        highlightedRowID = messageID
        requestScroll(to: messageID, toBottom: false)
    }

    // MARK: Helpers

    private func requestScroll(to rowID: String, toBottom: Bool) {
        nextScrollID += 1
        scrollRequest = ScrollRequest(id: nextScrollID, rowID: rowID, toBottom: toBottom)
    }
}
