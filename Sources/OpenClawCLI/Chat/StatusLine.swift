import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// The row under the input line, like the TUI's footer: where the chat is connected, the session, its
/// model and thinking level, and its tokens against the context when the gateway says them.
struct StatusLine: Equatable {
    var connection: Connection
    var gateway: String
    var session: String
    var model: String?
    var thinking: String?
    var totalTokens: Int?
    var contextTokens: Int?

    enum Connection: Equatable {
        case connected, connecting, offline
    }

    /// The row, remote words escaped: the gateway's address goes first when the window is narrow, then
    /// the tokens, the model and the thinking level; the session stays.
    func row(_ terminal: Terminal) -> StatusRow {
        let mark: String
        switch connection {
        case .connected: mark = terminal.styled("●", .green)
        case .connecting: mark = terminal.styled("◌ connecting", .yellow)
        case .offline: mark = terminal.styled("○ offline", .yellow)
        }
        var parts = [TerminalText.escapedLine(session)]
        var dropOrder: [Int] = []
        if let model {
            parts.append(TerminalText.escapedLine(model))
        }
        let modelIndex = model == nil ? nil : 1
        parts.append("thinking \(thinking.map(TerminalText.escapedLine) ?? "default")")
        let thinkingIndex = parts.count - 1
        if let tokens = Self.tokens(total: totalTokens, context: contextTokens) {
            parts.append(tokens)
            dropOrder.append(parts.count - 1)
        }
        parts.append(TerminalText.escapedLine(gateway))
        dropOrder.insert(parts.count - 1, at: 0)
        if let modelIndex { dropOrder.append(modelIndex) }
        dropOrder.append(thinkingIndex)
        return StatusRow(lead: mark, parts: parts, dropOrder: dropOrder, dim: terminal.colors)
    }

    /// `12.3k/200k tokens`, `12.3k tokens`, or nil when the gateway said nothing.
    static func tokens(total: Int?, context: Int?) -> String? {
        switch (total, context) {
        case (let total?, let context?): "\(compact(total))/\(compact(context)) tokens"
        case (let total?, nil): "\(compact(total)) tokens"
        case (nil, let context?): "context \(compact(context))"
        case (nil, nil): nil
        }
    }

    static func compact(_ count: Int) -> String {
        // Counts come from the gateway: bounded before any arithmetic (a huge one would overflow).
        let count = min(max(count, 0), 999_000_000_000)
        switch count {
        case ..<1_000: return "\(count)"
        case ..<1_000_000:
            let tenths = (count + 50) / 100
            return tenths % 10 == 0 || count >= 100_000 ? "\((count + 500) / 1_000)k" : "\(tenths / 10).\(tenths % 10)k"
        default:
            let tenths = (count + 50_000) / 100_000
            return tenths % 10 == 0 ? "\(tenths / 10)M" : "\(tenths / 10).\(tenths % 10)M"
        }
    }
}

extension InteractiveChat {
    /// The status line as the chat session says things are now.
    var statusLine: StatusLine {
        let connection: StatusLine.Connection
        switch chat.connectionState {
        case .connected: connection = .connected
        case .connecting: connection = .connecting
        case .reconnecting, .disconnected, .failed: connection = .offline
        }
        let keys = chat.transcript.sessionKeys
        let row = chat.sessions.first { keys.matches($0.key, chat.currentSessionKey) }
        let model = (row?.model).map { model in row?.modelProvider.map { "\($0)/\(model)" } ?? model }
        return StatusLine(
            connection: connection, gateway: gatewayLabel, session: currentSessionName, model: model,
            thinking: chat.thinkingLevel?.rawValue ?? row?.thinkingLevel,
            // Live from `sessions.changed` when the gateway sends it; the session list's row otherwise.
            totalTokens: chat.usage?.totalTokens ?? row?.totalTokens,
            contextTokens: chat.usage?.contextTokens ?? row?.contextTokens)
    }

    /// Redraws the status line whenever what it shows changes; nothing runs in between.
    func keepStatusLine() async {
        while !Task.isCancelled {
            InputLineDisplay.shared.setStatus(statusLine.row(terminal))
            await waitForChange(timeout: nil, of: chat, [.connection, .sessions, .settings, .currentSession, .usage])
        }
    }
}
