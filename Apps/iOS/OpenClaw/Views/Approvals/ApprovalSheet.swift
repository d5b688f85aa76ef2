import OpenClawAppModel
import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol
import SwiftUI

/// The approval sheet: the oldest pending command, escaped, with where it runs, the warnings, the
/// countdown and the decisions the gateway offers. Every value comes from ``ApprovalCard``; the view
/// only lays it out and forwards taps.
struct ApprovalSheet: View {
    let approvals: ApprovalsModel
    let card: ApprovalCard

    var body: some View {
        NavigationStack {
            List {
                Section("Command") {
                    Text(approvals.isExpanded(card) ? card.fullCommand : card.command)
                        .font(.system(.body, design: .monospaced))
                        .textSelection(.enabled)
                    if card.isTruncated || card.approval.request.argv.count > 1 {
                        Button(approvals.isExpanded(card) ? "Show less" : "Show full command") {
                            approvals.toggleFullCommand(card)
                        }
                    }
                }
                if !card.warnings.isEmpty {
                    Section {
                        ForEach(card.warnings, id: \.self) { warning in
                            Label(warning, systemImage: "exclamationmark.triangle.fill")
                                .foregroundStyle(.red)
                        }
                    }
                }
                Section {
                    ForEach(card.details) { row in
                        LabeledContent(row.label, value: row.value)
                    }
                    TimelineView(.periodic(from: .now, by: 1)) { _ in
                        LabeledContent("Expires in", value: card.countdown(at: .now))
                            .monospacedDigit()
                    }
                }
                Section {
                    ForEach(card.actions) { action in
                        Button(action.title, role: action.isDestructive ? .destructive : nil) {
                            Task { await approvals.decide(card, action.decision) }
                        }
                        .disabled(approvals.deciding.contains(card.id))
                    }
                }
            }
            .navigationTitle("Approve command \(card.shortId)?")
            .navigationBarTitleDisplayMode(.inline)
        }
        .interactiveDismissDisabled()
    }
}

/// The banner over the chat while commands wait, and the last outcome for a moment after.
struct ApprovalBanner: View {
    let approvals: ApprovalsModel
    let open: @MainActor () -> Void

    var body: some View {
        if let text = approvals.bannerText {
            Button(action: open) {
                Label(text, systemImage: "hand.raised.fill")
                    .frame(maxWidth: .infinity, alignment: .leading)
            }
            .padding(10)
            .background(.yellow.opacity(0.25))
        } else if let notice = approvals.notice {
            NoticeBanner(notice: notice) { approvals.dismissNotice() }
        } else if let next = approvals.availability.nextStep, approvals.availability != .off {
            Text([approvals.availability.message, next].joined(separator: " "))
                .font(.caption)
                .padding(10)
                .frame(maxWidth: .infinity, alignment: .leading)
                .background(.orange.opacity(0.15))
        }
    }
}
