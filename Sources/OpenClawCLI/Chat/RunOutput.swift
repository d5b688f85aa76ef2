import Foundation
import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

/// Where a run's text and activity go: plain text for people, or one JSON object per line for scripts.
struct RunOutput: Sendable {
    enum Format: Sendable { case text, json }

    let format: Format
    /// Whether finished tool steps are printed (dim) in text mode.
    let showsActivity: Bool
    /// Renders the reply's Markdown (text mode on a colour terminal); nil prints the raw text.
    var markdown: MarkdownTerminalRenderer?

    var showsStatus: Bool { format == .text }

    /// Said when a run ends without any reply text.
    static let silentRunNote = "(the agent ended its run without a reply)"

    func text(_ chunk: String, runId: String, terminal: Terminal) {
        switch format {
        case .text: terminal.write(TerminalText.escaped(chunk))
        case .json:
            terminal.line(JSONSerializer.string(["type": "delta", "runId": .string(runId), "text": .string(chunk)]))
        }
    }

    func rewriteMarker(terminal: Terminal) {
        if format == .text { terminal.write("\n" + terminal.styled("↺ revised:", .dim) + "\n") }
    }

    /// The connection came back while a run was followed: scripts see a `reconnected` line, people a note
    /// on stderr (stdout stays the reply alone).
    func reconnected(runId: String, terminal: Terminal) {
        switch format {
        case .json: terminal.line(JSONSerializer.string(["type": "reconnected", "runId": .string(runId)]))
        case .text: terminal.errorLine(terminal.styled("(reconnected — following the reply)", .dim))
        }
    }

    func endOfText(terminal: Terminal) {
        if format == .text { terminal.write("\n") }
    }

    func activityFinished(_ step: ActivityStep, terminal: Terminal, clearStatus: () -> Void) {
        switch format {
        case .json:
            let kind: String
            switch step.kind {
            case .thinking: kind = "thinking"
            case .tool: kind = "tool"
            }
            let object: JSONValue = .object(dropping: [
                ("type", "activity"), ("kind", .string(kind)), ("summary", .string(step.summary(limit: 200))),
                ("status", .string(step.status == .failed ? "failed" : "succeeded")),
                ("durationMs", .int(step.durationMs)),
            ])
            terminal.line(JSONSerializer.string(object))
        case .text:
            guard showsActivity, case .tool = step.kind else { return }
            clearStatus()
            terminal.line(Self.finishedStepLine(step, terminal: terminal))
        }
    }

    /// A finished tool step on one dim line: `  ✓ exec: curl -s … (0.4 s)` (`✗` when it failed).
    static func finishedStepLine(_ step: ActivityStep, terminal: Terminal) -> String {
        finishedStepLine(ActivityRow(step), terminal: terminal)
    }

    /// `  ✓ exec: ls -la (1.2 s)`: a finished step, as the app words it (``ActivityRow``).
    static func finishedStepLine(_ step: ActivityRow, terminal: Terminal) -> String {
        let mark = step.status == .failed ? "✗" : "✓"
        let duration = step.duration.map { " (\($0))" } ?? ""
        return terminal.styled("  \(mark) \(TerminalText.escapedLine(step.summary))\(duration)", .dim)
    }
}

extension ActivityStep {
    /// ` (1.2 s)`, or empty while the duration is unknown.
    var durationLabel: String {
        durationMs.map { " (\(ActivityText.duration(milliseconds: $0)))" } ?? ""
    }
}
