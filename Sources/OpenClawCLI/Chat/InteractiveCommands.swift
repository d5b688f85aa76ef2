import Foundation
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// What each line typed in the interactive chat does.
extension InteractiveChat {
    func perform(_ input: ChatInput) async {
        switch input {
        case .empty: break
        case .message(let text): await send(text)
        case .local(let command, let argument): await perform(command, argument: argument)
        }
    }

    private func perform(_ command: LocalCommand, argument: String) async {
        switch command {
        case .help:
            for case (let usage, let text)? in LocalCommand.allCases.map(\.help) {
                let column = usage.padding(toLength: 22, withPad: " ", startingAt: 0)
                terminal.line("  \(terminal.styled(column, .bold))\(text)")
            }
            terminal.line(
                terminal.styled(
                    "  Any other /command (/new, /reset, /compact, /stop …) goes to the gateway; //text sends /text.",
                    .dim))
        case .quit, .exit: requestQuit()
        case .approve: await decideApproval(.allowOnce, reference: argument, typed: "/approve")
        case .approveAlways: await decideApproval(.allowAlways, reference: argument, typed: "/approve-always")
        case .deny: await decideApproval(.deny, reference: argument, typed: "/deny")
        case .approvals: await showApprovals(argument)
        case .abort: await viewModel.abort()
        case .think:
            viewModel.thinkingLevel = argument.isEmpty || argument == "default" ? nil : argument
            terminal.line("thinking level: \(viewModel.thinkingLevel ?? "session default")")
        case .sessions:
            await viewModel.refreshSessions()
            for session in viewModel.sessions {
                let marker = session.key == viewModel.currentSessionKey ? "●" : " "
                terminal.line(" \(marker) \(terminal.styled(session.key, .bold))  \(session.title)")
            }
        case .session:
            guard !argument.isEmpty else {
                terminal.line("current session: \(viewModel.currentSessionKey)")
                return
            }
            await viewModel.switchSession(to: argument)
            terminal.line(terminal.styled("switched to \(argument)", .dim))
            showRecentHistory()
        case .history:
            let count = Int(argument) ?? 20
            await viewModel.refreshHistory()
            for entry in viewModel.messages.suffix(max(1, count)) { printEntry(entry) }
        case .status:
            describeStatus()
        case .reconnect:
            await connection.reconnectNow()
            describeStatus()
        case .retry:
            if let failed = viewModel.messages.last(where: {
                $0.role == .user && ($0.status.isFailed || $0.status == .unconfirmed)
            }) {
                await viewModel.retry(messageID: failed.id)
                replies.follow(after: failed.id)
            } else {
                terminal.line("nothing to retry")
            }
        case .search:
            guard !argument.isEmpty else {
                terminal.line("usage: /search WORDS")
                return
            }
            SearchOutput.print(await viewModel.search(argument), terminal: terminal, showGateway: false)
        }
    }

    private func describeStatus() {
        switch viewModel.connectionState {
        case .connected(let session):
            terminal.line(
                "connected to \(gatewayLabel), protocol \(session.protocolVersion.rawValue), server \(session.hello.server.version)"
            )
            terminal.line("scopes \(session.scopes.joined(separator: ", ")), device \(session.deviceId)")
            terminal.line("session \(viewModel.currentSessionKey)")
        case .connecting: terminal.line("connecting…")
        case .reconnecting(let status): terminal.line("offline: \(status.summary())")
        case .disconnected(let reason): terminal.line("offline: \(reason.map { "\($0)" } ?? "not connected")")
        case .failed(let error): terminal.error(error.message, hint: error.nextStep)
        }
    }
}
