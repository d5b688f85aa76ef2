import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol

/// What the app's approval sheet shows for one pending command: everything decided here, so the
/// SwiftUI view only lays it out and forwards taps.
public struct ApprovalCard: Sendable, Hashable, Identifiable {
    public struct Action: Sendable, Hashable, Identifiable {
        public let decision: ExecApprovalDecision
        public var id: String { decision.rawValue }

        /// "Allow once", "Always allow", "Deny" (upstream's wording).
        public var title: String {
            switch decision {
            case .allowOnce: "Allow once"
            case .allowAlways: "Always allow"
            case .deny: "Deny"
            }
        }

        public var isDestructive: Bool { decision == .deny }
    }

    public let approval: PendingApproval
    /// A unique short form of the id, for the header.
    public let shortId: String

    public var id: String { approval.id }

    /// The command, escaped and cut to ``summaryLimit`` characters.
    public var command: String {
        let text = approval.display.summary(limit: Self.summaryLimit).text
        return text.isEmpty ? "(the gateway sent no command text)" : text
    }

    /// Every character of the command, escaped, and each argument on its own line.
    public var fullCommand: String {
        var lines = [approval.display.escaped]
        if approval.request.argv.count > 1 {
            lines += approval.request.argv.enumerated().map { "[\($0.offset)] \(CommandDisplay($0.element).escaped)" }
        }
        return lines.joined(separator: "\n")
    }

    /// Whether "Show full command" has anything more to show.
    public var isTruncated: Bool { approval.display.summary(limit: Self.summaryLimit).omitted > 0 }

    /// One row under the command: a label and its escaped value.
    public struct Detail: Sendable, Hashable, Identifiable {
        public let label: String
        public let value: String
        public var id: String { label }
    }

    /// Where and for whom it runs.
    public var details: [Detail] {
        var rows: [Detail] = []
        let request = approval.request
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { rows.append(Detail(label: label, value: CommandDisplay(value).escaped)) }
        }
        add("Directory", request.cwd)
        add("Host", [request.host, request.nodeId.map { "node \($0)" }].compactMap { $0 }.joined(separator: ", "))
        add("Agent", request.agentId)
        add("Session", request.sessionKey)
        add("Executable", request.resolvedPath)
        return rows
    }

    /// Warnings about hidden or look-alike characters, shown in red above the buttons.
    public var warnings: [String] { approval.display.warnings }

    public var actions: [Action] { approval.request.allowedDecisions.map(Action.init(decision:)) }

    /// `m:ss` left at `now` (the view re-renders it every second).
    public func countdown(at now: ContinuousClock.Instant) -> String { approval.countdown(at: now) }

    public static let summaryLimit = 400

    public static func == (lhs: ApprovalCard, rhs: ApprovalCard) -> Bool {
        lhs.approval == rhs.approval && lhs.shortId == rhs.shortId
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(approval)
        hasher.combine(shortId)
    }
}
