import Foundation
import OpenClawAppModel
import OpenClawChat
import OpenClawPresentation
import SwiftUI

/// The agent's thinking and tool steps above a reply, one line each; thinking expands to its text, a
/// finished tool step to its card (arguments and the start of its result, as the terminal's `/tools`).
struct ActivityStepsView: View {
    let steps: [ActivityRow]

    var body: some View {
        VStack(alignment: .leading, spacing: 3) {
            ForEach(steps) { step in
                if case .thinking = step.kind, !step.thinkingText.isEmpty {
                    DisclosureGroup {
                        Text(step.thinkingText)
                            .font(.caption)
                            .foregroundStyle(.secondary)
                            .textSelection(.enabled)
                    } label: {
                        line(for: step)
                    }
                } else if step.status != .running, let card = step.card {
                    DisclosureGroup {
                        ToolCardView(card: card)
                    } label: {
                        line(for: step)
                    }
                } else {
                    line(for: step)
                }
            }
        }
    }

    private func line(for step: ActivityRow) -> some View {
        HStack(spacing: 6) {
            switch step.status {
            case .running: ProgressView().controlSize(.mini)
            case .succeeded: Image(systemName: symbol(for: step.kind)).foregroundStyle(.secondary)
            case .failed: Image(systemName: "xmark.circle").foregroundStyle(.red)
            }
            Text(step.summary).lineLimit(1).truncationMode(.middle)
            if let duration = step.duration {
                Text(duration).foregroundStyle(.tertiary).monospacedDigit()
            }
        }
        .font(.caption)
        .foregroundStyle(.secondary)
    }

    private func symbol(for kind: ActivityRow.Kind) -> String {
        switch kind {
        case .thinking: "brain"
        case .tool: "wrench.and.screwdriver"
        }
    }
}

/// What the running reply is doing now, with the time it has taken so far, ticking: counted from
/// `since`, when the screen first saw the step (its `StepClock`, which outlives this view).
struct LiveActivityLine: View {
    let activity: LiveActivity
    let since: Date?

    var body: some View {
        TimelineView(.periodic(from: .now, by: 0.1)) { timeline in
            HStack(spacing: 6) {
                ProgressView().controlSize(.mini)
                Text(activity.line(elapsedMs: since.map { Int(timeline.date.timeIntervalSince($0) * 1000) }))
                    .lineLimit(1)
                    .truncationMode(.middle)
                    .monospacedDigit()
            }
            .font(.caption)
            .foregroundStyle(.secondary)
        }
    }
}

/// A tool step expanded: its arguments, then the first lines of its result.
private struct ToolCardView: View {
    let card: ToolCard

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            ForEach(Array(card.argumentLines.enumerated()), id: \.offset) { _, line in
                Text(line).lineLimit(2)
            }
            if let note = card.resultNote { Text(note).foregroundStyle(.tertiary) }
            ForEach(Array(card.resultLines.enumerated()), id: \.offset) { _, line in
                Text(line).lineLimit(1).foregroundStyle(.primary)
            }
            if let more = card.moreLinesNote { Text(more).foregroundStyle(.tertiary) }
        }
        .font(.caption.monospaced())
        .foregroundStyle(.secondary)
        .textSelection(.enabled)
    }
}
