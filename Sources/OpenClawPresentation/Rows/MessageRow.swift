import OpenClawChat
import OpenClawProtocol

/// What one message of a chat shows, derived from a transcript row: the app's bubble and the
/// terminal's printed message are both drawn from it, so they agree on who said it, what it carried,
/// the steps before it and the mark it gets (queued, not delivered, stopped, failed).
///
/// It keeps the row itself and derives the rest on read: the row's text lives in a shared buffer, so
/// building every row model for a long transcript copies no text, and comparing two of them (which
/// SwiftUI does to skip unchanged bubbles) is cheap while the text is the same buffer.
public struct MessageRow: Sendable, Equatable, Identifiable {
    public enum Author: Sendable, Equatable {
        case user
        case agent
        case system
    }

    /// A state worth a badge on the bubble.
    public enum Badge: Sendable, Equatable {
        /// In the outbox, waiting for a connection.
        case queued
        /// Sent, waiting for the gateway's acknowledgement.
        case sending
        /// Not delivered (refused, or expired in the outbox), with the reason.
        case notDelivered(String)
        /// The send's answer was lost and the gateway's duplicate memory has passed: it may or may not
        /// have arrived, and resending could make it twice. The user decides (retry or discard).
        case unconfirmed
        /// The reply was stopped; the text is what had arrived.
        case stopped(reason: String?)
        /// The agent's run failed.
        case replyFailed(String)

        /// The badge in words, the same in the app and the terminal (each adds its own icon or colour).
        public var text: String {
            switch self {
            case .queued: "Waiting for the connection"
            case .sending: "Sending…"
            case .notDelivered(let reason): "Not delivered: \(reason)"
            case .unconfirmed: "Maybe not delivered — resending may send it twice"
            case .stopped(let reason): reason.map { "Stopped (\($0))" } ?? "Stopped"
            case .replyFailed(let reason): "Failed: \(reason)"
            }
        }
    }

    public enum Action: Sendable, Hashable {
        case retry
        case discard
        /// History shortened the message: fetch it whole (`ChatSession.showAll(_:)`).
        case showAll

        /// The button's words, the same wherever it is offered.
        public var title: String {
            switch self {
            case .retry: "Retry"
            case .discard: "Discard"
            case .showAll: "Show all"
            }
        }
    }

    public let entry: TranscriptEntry
    /// Steps of the assistant messages before this reply in the same turn that only called tools (see
    /// ``rows(for:)``): shown first, as the streaming reply showed them.
    public private(set) var precedingSteps: [ActivityStep] = []

    /// Nil for rows a chat does not show as bubbles: tool results (they are part of the reply's
    /// activity steps) and finished replies with neither text nor steps (a silent reply).
    public init?(_ entry: TranscriptEntry) {
        switch entry.role {
        case .toolResult: return nil
        case .assistant:
            if entry.status == .complete, entry.textUTF8Count == 0, entry.activity.isEmpty { return nil }
        case .user, .system, .other: break
        }
        self.entry = entry
    }

    public var id: String { entry.id }

    public var author: Author {
        switch entry.role {
        case .user: .user
        case .assistant: .agent
        case .toolResult, .system, .other: .system
        }
    }

    /// The text so far (materialised on each read: read it once per render).
    public var text: String { entry.text }

    /// The message's images and files, one line each under the text (`[image: photo.jpg, 1.2 MB]`).
    public var attachments: [AttachmentRow] { entry.attachments }

    /// Replies are Markdown; what the user typed is shown as typed.
    public var rendersMarkdown: Bool { author == .agent }

    /// The reply's blocks, for ``rendersMarkdown`` rows.
    public var blocks: [MarkdownBlock] { MarkdownParser.parse(entry.text) }

    /// A streaming reply: show a cursor after the text.
    public var isStreaming: Bool { entry.status == .streaming }

    public var timestampMs: Int? { entry.timestampMs }

    public var badge: Badge? {
        switch (entry.role, entry.status) {
        case (.user, .queued): .queued
        case (.user, .sending): .sending
        case (.user, .failed(let reason)): .notDelivered(reason)
        case (.user, .unconfirmed): .unconfirmed
        case (_, .stopped): .stopped(reason: entry.stopReason)
        case (_, .failed(let reason)): .replyFailed(reason)
        default: nil
        }
    }

    /// What the bubble offers: a failed message can be sent again or dropped, a queued one dropped, one
    /// history shortened shown whole.
    public var actions: [Action] {
        if isTruncated { return [.showAll] }
        guard entry.role == .user else { return [] }
        switch entry.status {
        case .failed, .unconfirmed: return [.retry, .discard]
        case .queued: return [.discard]
        default: return []
        }
    }

    /// A divider (compaction or reset) rather than a message: drawn as a line across the chat.
    public var boundary: TranscriptBoundary? { entry.boundary }

    /// History shortened this message; ``Action/showAll`` fetches it whole.
    public var isTruncated: Bool { entry.isTruncated }

    /// The number the terminal's `/expand N` takes for this message: its place in the gateway's
    /// transcript, stable while the transcript is not reset or compacted.
    public var expandNumber: Int? { entry.transcriptSeq }

    /// Finished and running steps, in order.
    public var steps: [ActivityRow] { (precedingSteps + entry.activity).map(ActivityRow.init) }

    /// The rows a chat shows for a transcript. History keeps a turn's tool calls apart from its answer
    /// (an assistant message that only calls tools, their results, then the text); the live reply
    /// showed them as one bubble with its steps. An assistant message with steps and no text is folded
    /// into the assistant row that follows it in the same turn, so reading history moves nothing and the
    /// row keeps its id.
    public static func rows(for entries: [TranscriptEntry]) -> [MessageRow] {
        var rows: [MessageRow] = []
        rows.reserveCapacity(entries.count)
        var carried: [ActivityStep] = []
        for (index, entry) in entries.enumerated() {
            if Self.onlyCallsTools(entry),
                entries[(index + 1)...].first(where: { $0.role != .toolResult })?.role == .assistant
            {
                carried += entry.activity
                continue
            }
            guard var row = MessageRow(entry) else { continue }
            if entry.role == .assistant {
                row.precedingSteps = carried
                carried = []
            }
            rows.append(row)
        }
        return rows
    }

    /// A finished assistant message with steps and no text.
    private static func onlyCallsTools(_ entry: TranscriptEntry) -> Bool {
        entry.role == .assistant && entry.status == .complete && entry.textUTF8Count == 0 && !entry.activity.isEmpty
    }

    /// Under a finished reply: its model and tokens, when the gateway said (``ReplyFooter``; the terminal
    /// adds the thinking level in effect, which a message does not record).
    public var footer: ReplyFooter? {
        guard entry.role == .assistant, entry.status == .complete else { return nil }
        return ReplyFooter(reply: entry, thinkingLevel: nil)
    }

    /// What a running reply is doing now; nil otherwise.
    public var liveActivity: LiveActivity? { LiveActivity(entry) }
}
