import OpenClawAppModel
import OpenClawChat
import OpenClawPresentation
import SwiftUI
import UIKit

/// One message: text (Markdown for replies), the agent's steps, the live activity line, the delivery
/// badge and its actions. Equatable on its row, so bubbles that did not change are not redrawn while
/// a reply streams.
struct MessageBubble: View, Equatable {
    let row: MessageRowModel
    let isHighlighted: Bool
    /// When the running step was first seen (`ChatScreenModel.stepClock`); nil when none runs.
    let stepStart: Date?
    let perform: (MessageRowModel.Action) -> Void

    nonisolated static func == (lhs: MessageBubble, rhs: MessageBubble) -> Bool {
        lhs.row == rhs.row && lhs.isHighlighted == rhs.isHighlighted && lhs.stepStart == rhs.stepStart
    }

    var body: some View {
        HStack(alignment: .bottom) {
            if row.author == .user { Spacer(minLength: 48) }
            VStack(alignment: row.author == .user ? .trailing : .leading, spacing: 6) {
                if !row.steps.isEmpty {
                    ActivityStepsView(steps: row.steps)
                }
                content
                ForEach(Array(row.attachments.enumerated()), id: \.offset) { _, attachment in
                    AttachmentLine(attachment: attachment)
                }
                if let live = row.liveActivity {
                    LiveActivityLine(activity: live, since: stepStart)
                }
                if let badge = row.badge {
                    BadgeView(badge: badge)
                }
                if let footer = row.footer {
                    Text(footer.text).font(.caption2).foregroundStyle(.tertiary).lineLimit(1)
                }
                if !row.actions.isEmpty {
                    HStack {
                        ForEach(row.actions, id: \.self) { action in
                            Button(action.title, role: action == .discard ? .destructive : nil) {
                                perform(action)
                            }
                            .buttonStyle(.bordered)
                            .controlSize(.small)
                        }
                    }
                }
            }
            .padding(10)
            .background(background, in: RoundedRectangle(cornerRadius: 16, style: .continuous))
            .overlay {
                if isHighlighted {
                    RoundedRectangle(cornerRadius: 16, style: .continuous).stroke(.tint, lineWidth: 2)
                }
            }
            .contextMenu {
                Button {
                    UIPasteboard.general.string = row.text
                } label: {
                    Label("Copy", systemImage: "doc.on.doc")
                }
            }
            if row.author != .user { Spacer(minLength: 48) }
        }
    }

    @ViewBuilder
    private var content: some View {
        if row.rendersMarkdown {
            let blocks = row.blocks
            if !blocks.isEmpty {
                MarkdownView(blocks: blocks)
            }
            if row.isStreaming, row.liveActivity == nil {
                StreamingCursor()
            }
        } else {
            Text(row.text).textSelection(.enabled)
        }
    }

    private var background: Color {
        switch row.author {
        case .user: Color.accentColor.opacity(0.18)
        case .agent: Color(uiColor: .secondarySystemBackground)
        case .system: Color(uiColor: .tertiarySystemBackground)
        }
    }
}

/// An image or file of a message, as its label. An image the message links over https is loaded only
/// when tapped: loading every link a reply contains would let it track the reader or probe the local
/// network (gateway-relative media would need the gateway's authenticated media route, not called yet).
private struct AttachmentLine: View {
    let attachment: AttachmentRow
    @State private var showsImage = false

    var body: some View {
        if attachment.isImage, case .url(let link) = attachment.availability, let url = URL(string: link),
            url.scheme == "https"
        {
            if showsImage {
                AsyncImage(url: url) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
                .frame(maxWidth: 220, maxHeight: 220)
                .clipShape(RoundedRectangle(cornerRadius: 10))
                .accessibilityLabel(attachment.label)
            } else {
                Button {
                    showsImage = true
                } label: {
                    Label(attachment.label, systemImage: "photo").font(.caption)
                }
                .accessibilityHint("Loads the image from \(url.host ?? "the web")")
            }
        } else {
            Label(attachment.label, systemImage: attachment.isImage ? "photo" : "doc")
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}

/// A blinking block after the text of a reply that is still being written.
private struct StreamingCursor: View {
    var body: some View {
        PhaseAnimator([1.0, 0.2]) { opacity in
            Text("▍").foregroundStyle(.secondary).opacity(opacity)
        } animation: { _ in
            .easeInOut(duration: 0.5)
        }
        .accessibilityHidden(true)
    }
}

/// Queued, sending, not delivered, stopped, failed.
private struct BadgeView: View {
    let badge: MessageRowModel.Badge

    var body: some View {
        // The words are the shared ones (`MessageRow.Badge.text`, as the terminal prints them).
        switch badge {
        case .queued:
            Label(badge.text, systemImage: "clock").font(.caption).foregroundStyle(.secondary)
        case .sending:
            Label(badge.text, systemImage: "arrow.up.circle").font(.caption).foregroundStyle(.secondary)
        case .notDelivered:
            Label(badge.text, systemImage: "exclamationmark.circle").font(.caption).foregroundStyle(.red)
        case .unconfirmed:
            Label(badge.text, systemImage: "questionmark.circle").font(.caption).foregroundStyle(.orange)
        case .stopped:
            Label(badge.text, systemImage: "stop.circle").font(.caption).foregroundStyle(.secondary)
        case .replyFailed:
            Label(badge.text, systemImage: "exclamationmark.triangle").font(.caption).foregroundStyle(.red)
                .textSelection(.enabled)
        }
    }
}
