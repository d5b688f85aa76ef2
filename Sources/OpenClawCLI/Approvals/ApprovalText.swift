import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the terminal shows approval requests and their outcomes, as text or as JSON objects. The
/// command always goes through ``CommandDisplay``: escaped, never interpreted by the terminal; the id,
/// chosen by the gateway, through ``TerminalText``.
enum ApprovalText {
    /// Escaped command characters shown before "show ID" is needed for the rest.
    static let summaryLimit = 300

    /// The request's lines. `commands` names the decisions as the reader types them (`/approve` in
    /// the chat, `allow` in `approvals watch`).
    static func card(
        _ approval: PendingApproval, shortId: String, now: ContinuousClock.Instant, full: Bool = false,
        commands: (ExecApprovalDecision) -> String, terminal: Terminal
    ) -> [String] {
        let request = approval.request
        let display = approval.display
        let shortId = TerminalText.escapedLine(shortId)
        var lines = [
            terminal.styled("approval needed", .yellow) + "  " + terminal.styled(shortId, .bold) + "  "
                + terminal.styled("expires in \(approval.countdown(at: now))", .dim)
        ]
        let (text, omitted) = full ? (text: display.escaped, omitted: 0) : display.summary(limit: summaryLimit)
        lines.append("  command  " + (text.isEmpty ? "(the gateway sent no command text)" : text))
        if omitted > 0 {
            lines.append(terminal.styled("           … \(omitted) more characters (show \(shortId) prints all)", .dim))
        }
        if full, request.argv.count > 1 {
            for (index, argument) in request.argv.enumerated() {
                lines.append("  argv[\(index)]  " + CommandDisplay(argument).escaped)
            }
        }
        for (label, value) in details(request) {
            lines.append("  " + label.padded(toUTF16Length: 8) + " " + value)
        }
        for warning in display.warnings {
            lines.append("  " + terminal.styled("⚠ " + warning, .red))
        }
        let offered = request.allowedDecisions.map { "\(commands($0)) \(shortId)" }
        lines.append("  " + terminal.styled(offered.joined(separator: " · "), .dim))
        return lines
    }

    /// Where and for whom it runs, each value escaped like the command.
    static func details(_ request: ExecApprovalRequest) -> [(String, String)] {
        var rows: [(String, String)] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { rows.append((label, CommandDisplay(value).escaped)) }
        }
        add("cwd", request.cwd)
        let host = [request.host, request.nodeId.map { "node \($0)" }].compactMap { $0 }.joined(separator: ", ")
        add("host", host)
        add("agent", request.agentId)
        add("session", request.sessionKey)
        add("resolved", request.resolvedPath)
        if let security = request.security, let ask = request.ask {
            rows.append(("policy", CommandDisplay("security=\(security) ask=\(ask)").escaped))
        }
        if !request.envKeys.isEmpty { add("env", request.envKeys.joined(separator: " ")) }
        return rows
    }

    /// One line saying how a request ended.
    static func outcome(_ closed: ClosedApproval, shortId: String, terminal: Terminal) -> String {
        let shortId = TerminalText.escapedLine(shortId)
        switch closed.outcome {
        case .decided(let decision, let by, let byUs):
            let who = byUs ? "you" : by.map { CommandDisplay($0).escaped } ?? "another approver"
            let verb =
                switch decision {
                case .allowOnce: "allowed once"
                case .allowAlways: "allowed always"
                case .deny: "denied"
                }
            let mark = decision.allowsRun ? terminal.styled("✓", .green) : terminal.styled("✗", .red)
            return "\(mark) approval \(shortId) \(verb) by \(who)"
        case .resolvedOther(let by):
            return "• approval \(shortId) decided by \(by.map { CommandDisplay($0).escaped } ?? "another approver")"
        case .expired:
            return terminal.styled("⌛ approval \(shortId) expired: the command did not run", .yellow)
        case .withdrawn:
            return "• approval \(shortId) is no longer pending (decided elsewhere or expired while offline)"
        case .undetermined(let sent):
            return "• approval \(shortId) is no longer pending: it was decided, perhaps by your \(sent.rawValue), "
                + "or it expired; the gateway no longer says which"
        }
    }

    /// One approval as the gateway recorded it (`approval.get`, `approval.history`): status, decision,
    /// short id, what was asked (escaped as a command), and when it ended.
    static func recorded(_ snapshot: ApprovalSnapshot, terminal: Terminal) -> String {
        let state: String
        switch snapshot.status {
        case .allowed:
            let how = snapshot.decision == .allowAlways ? "allowed always" : "allowed once"
            state = terminal.styled("✓ " + how, .green)
        case .denied: state = terminal.styled("✗ denied", .red)
        case .expired: state = terminal.styled("⌛ expired", .yellow)
        case .cancelled: state = "• cancelled"
        case .pending: state = terminal.styled("… pending", .yellow)
        case .other(let status): state = "• " + TerminalText.escapedLine(status)
        }
        var line = state + "  " + terminal.styled(TerminalText.escapedLine(String(snapshot.id.prefix(8))), .bold)
        if let subject = snapshot.subject { line += "  " + CommandDisplay(subject).summary(limit: 80).text }
        if let reason = snapshot.reason, reason != "user" {
            line += terminal.styled("  (" + TerminalText.escapedLine(reason) + ")", .dim)
        }
        if let at = snapshot.resolvedAtMs { line += terminal.styled("  " + LocalTimeText.dateTime(ms: at), .dim) }
        return line
    }

    /// A decision whose answer was lost turned out not to have reached the gateway.
    static func undelivered(_ approval: PendingApproval, sent: ExecApprovalDecision, shortId: String) -> String {
        "• approval \(TerminalText.escapedLine(shortId)): your \(sent.rawValue) did not reach the gateway; "
            + "the command is still waiting for a decision"
    }

    // MARK: - JSON (approvals watch --json)

    static func json(_ approval: PendingApproval, now: ContinuousClock.Instant) -> JSONValue {
        let request = approval.request
        return .object(dropping: [
            ("type", "request"), ("id", .string(request.id)), ("command", .string(request.command)),
            ("escaped", .string(approval.display.escaped)), ("argv", .strings(request.argv)),
            ("cwd", .string(request.cwd)), ("host", .string(request.host)), ("nodeId", .string(request.nodeId)),
            ("agentId", .string(request.agentId)), ("sessionKey", .string(request.sessionKey)),
            ("security", .string(request.security)), ("ask", .string(request.ask)),
            ("resolvedPath", .string(request.resolvedPath)),
            ("allowedDecisions", .strings(request.allowedDecisions.map(\.rawValue))),
            ("expiresInMs", .int(approval.remaining(at: now).milliseconds)),
            ("warnings", .strings(approval.display.warnings)),
        ])
    }

    static func json(_ closed: ClosedApproval) -> JSONValue {
        switch closed.outcome {
        case .decided(let decision, let by, let byUs):
            return .object(dropping: [
                ("type", "outcome"), ("id", .string(closed.id)), ("outcome", .string(decision.rawValue)),
                ("by", .string(by)), ("byUs", .bool(byUs)),
            ])
        case .resolvedOther(let by):
            return .object(dropping: [
                ("type", "outcome"), ("id", .string(closed.id)), ("outcome", "resolved"), ("by", .string(by)),
                ("byUs", false),
            ])
        case .expired:
            return ["type": "outcome", "id": .string(closed.id), "outcome": "expired", "byUs": false]
        case .withdrawn:
            return ["type": "outcome", "id": .string(closed.id), "outcome": "withdrawn", "byUs": false]
        case .undetermined(let sent):
            return [
                "type": "outcome", "id": .string(closed.id), "outcome": "undetermined", "sent": .string(sent.rawValue),
            ]
        }
    }

    static func jsonUndelivered(_ approval: PendingApproval, sent: ExecApprovalDecision) -> JSONValue {
        ["type": "undelivered", "id": .string(approval.id), "sent": .string(sent.rawValue)]
    }

    static func json(_ error: ApprovalError) -> JSONValue {
        .object(dropping: [("type", "error"), ("message", .string(error.message)), ("hint", .string(error.nextStep))])
    }
}
