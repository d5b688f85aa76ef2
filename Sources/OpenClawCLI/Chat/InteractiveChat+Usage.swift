import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/usage` and the gateway's commands in `/help`.
extension InteractiveChat {
    /// `/usage` shows what the gateway last reported for this session; `/usage ARG` is the gateway's
    /// own command (`/usage off|tokens|full` sets its reply footers) and goes to it as a message.
    func showUsage(_ argument: String) async {
        guard argument.isEmpty else {
            await send("/usage \(argument)")
            return
        }
        guard let usage = chat.usage, !usage.isEmpty else {
            terminal.line(
                chat.connectionState.isConnected && !gatewayReportsUsage
                    ? "this gateway does not report usage live (no sessions.changed); /usage full asks it for "
                        + "reply footers"
                    : "no usage reported for this session yet")
            return
        }
        for line in UsageLines.lines(usage) { terminal.line(line) }
    }

    /// Whether the connected gateway has `sessions.subscribe` (and so sends `sessions.changed`).
    private var gatewayReportsUsage: Bool {
        guard let session = chat.connectionState.session else { return false }
        return session.hello.features.methods.contains(GatewayMethodName.sessionsSubscribe)
    }

    /// The gateway's own commands under `/help`, with their descriptions, when it listed them.
    /// The gateway's command list may still be on its way when `/help` is typed right after connecting:
    /// waited for, so the list is not left out. Not on a clock (a loaded machine took seconds): the list's
    /// request ends by its own timeout at the latest, and a dropped connection ends the wait.
    func waitForGatewayCommands() async {
        while !chat.gatewayCommandsSettled, chat.connectionState.isConnected, !Task.isCancelled {
            await waitForChange(timeout: nil, of: chat, [.commands, .connection])
        }
    }

    func listGatewayCommands() {
        let commands = chat.gatewayCommands
        guard !commands.isEmpty else { return }
        terminal.line(terminal.styled("  The gateway's commands (sent to it as messages):", .dim))
        for command in commands {
            let usage = "/" + TerminalText.escapedLine(command.name) + (command.acceptsArgs ? " …" : "")
            let text = TerminalText.escapedLine(String(command.description.prefix(200)))
            terminal.line("  \(terminal.styled(HelpRow.usageColumn(usage), .bold))\(text)")
        }
    }
}

/// The lines `/usage` prints, from what the gateway reported.
enum UsageLines {
    /// One short phrase for a status line or under a reply (`ctx 41k/200k (21%) · $0.02`); nil when
    /// the gateway reported neither.
    static func compact(_ usage: SessionUsage) -> String? {
        var parts: [String] = []
        if let used = usage.totalTokens, let window = usage.contextTokens, let fraction = usage.contextFraction {
            parts.append(
                "ctx \(TokenCount.short(used))/\(TokenCount.short(window)) (\(Int((fraction * 100).rounded()))%)")
        }
        if let cost = usage.estimatedCostUsd { parts.append(TokenCount.dollars(cost)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    static func lines(_ usage: SessionUsage) -> [String] {
        var lines: [String] = []
        if usage.inputTokens != nil || usage.outputTokens != nil {
            let input = usage.inputTokens.map(TokenCount.short) ?? "?"
            let output = usage.outputTokens.map(TokenCount.short) ?? "?"
            lines.append("tokens: \(input) in, \(output) out")
        }
        if let used = usage.totalTokens {
            var context = "context: \(TokenCount.short(used))"
            if let window = usage.contextTokens { context += " of \(TokenCount.short(window))" }
            if let fraction = usage.contextFraction { context += " (\(Int((fraction * 100).rounded()))%)" }
            if usage.totalTokensFresh == false { context += ", before the latest call" }
            lines.append(context)
        } else if let window = usage.contextTokens {
            lines.append("context window: \(TokenCount.short(window))")
        }
        if let cost = usage.estimatedCostUsd { lines.append("estimated cost: \(TokenCount.dollars(cost))") }
        if let model = usage.model { lines.append("model: \(TerminalText.escapedLine(model))") }
        return lines
    }
}

extension InteractiveChat {
    /// The gateway's commands as Tab candidates, those this chat handles itself left out: what
    /// ``refreshCompletions(fetchModels:)`` can merge in once `commands.list` has answered.
    var gatewayCompletionCommands: [CompletionSources.Command] {
        chat.gatewayCommands.filter { LocalCommand(rawValue: $0.name) == nil }.map {
            CompletionSources.Command(name: $0.name, summary: String($0.description.prefix(200)))
        }
    }
}
