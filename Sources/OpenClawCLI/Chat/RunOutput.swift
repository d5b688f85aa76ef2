import OpenClawChat
import OpenClawPresentation
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a run's text and activity go: plain text for people, or one JSON object per line for scripts.
struct RunOutput: Sendable {
    enum Format: Sendable { case text, json }

    let format: Format
    /// Whether finished steps are printed (dim) in text mode.
    let showsActivity: Bool
    /// Whether a finished thinking step's reasoning is printed under its line (`/think show`).
    var showsThinking = false
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
            guard showsActivity else { return }
            clearStatus()
            for line in StepLines.finished(ActivityRow(step), showsThinking: showsThinking, terminal: terminal) {
                terminal.line(line)
            }
        }
    }
}
