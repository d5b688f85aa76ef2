import OpenClawChat

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One thinking or tool step under a reply: a line that says what the agent did and how long it took.
public struct ActivityRow: Sendable, Equatable, Identifiable {
    public enum Kind: Sendable, Equatable {
        case thinking
        case tool(name: String)
    }

    public let id: String
    public let kind: Kind
    public let status: ActivityStatus
    /// `exec: curl -s https://…`, or the first line of the reasoning.
    public let summary: String
    /// `2.1 s` once the step has ended and both ends are known.
    public let duration: String?
    /// The whole reasoning of a thinking step, for expanding it; empty for tools.
    public let thinkingText: String
    private let step: ActivityStep

    /// The tool step expanded (arguments and the start of its result); nil for thinking. Built on read:
    /// only an expanded step needs it.
    public var card: ToolCard? {
        guard case .tool = kind else { return nil }
        return ToolCard(step)
    }

    public init(_ step: ActivityStep) {
        self.step = step
        id = step.id
        switch step.kind {
        case .thinking: kind = .thinking
        case .tool(let name): kind = .tool(name: name)
        }
        status = step.status
        summary = step.summary(limit: 70)
        duration = step.durationMs.map { ActivityText.duration(milliseconds: $0) }
        thinkingText = step.thinkingText
    }
}

/// What a running reply is doing right now, for the live line under it: `running exec: curl …  2.1 s`.
/// The terminal's status line and the app's bubble both show it.
public struct LiveActivity: Sendable, Equatable {
    /// What is happening, without the elapsed time: `running exec: curl …`, `thinking…`.
    public let text: String
    /// The running step the line is about; nil while the run waits for its first step or word (the
    /// line then shows no elapsed time). When it changes, a new step began: its time starts again.
    public let stepId: String?

    /// The line with the time the step has run so far, or without it when `elapsedMs` is nil.
    ///
    /// The caller counts the time from when this device first saw ``stepId``, not from the gateway's
    /// `startedAtMs`: a gateway whose clock is minutes off would otherwise make a step look minutes long.
    public func line(elapsedMs: Int?) -> String {
        guard stepId != nil, let elapsedMs else { return text }
        return "\(text)  \(ActivityText.duration(milliseconds: elapsedMs))"
    }

    /// The live activity of a reply row; nil once the reply is over, or while text flows and no step
    /// is running (the streaming cursor says enough then).
    public init?(_ entry: TranscriptEntry) {
        guard entry.status == .streaming else { return nil }
        if let running = entry.activity.last(where: { $0.status == .running }) {
            text = ActivityText.running(running)
            stepId = running.id
            return
        }
        guard entry.textUTF8Count == 0 else { return nil }
        text = ActivityText.waiting(phase: entry.progressPhase)
        stepId = nil
    }
}
