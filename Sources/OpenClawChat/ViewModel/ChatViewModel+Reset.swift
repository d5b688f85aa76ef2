import OpenClawGateway
import OpenClawProtocol

/// `/new` and `/reset`: what the person typed, kept because the gateway's own command is its text.
public enum SessionResetCommand: String, Sendable, CaseIterable {
    case new
    case reset

    /// The gateway's chat command: `/new` or `/reset`.
    public var commandText: String { "/\(rawValue)" }
}

/// How ``ChatViewModel/resetSession(_:)`` started the session afresh.
public enum SessionResetOutcome: Sendable, Equatable {
    /// `sessions.reset` emptied the session, and the transcript now shows it empty.
    case reset
    /// Sent as the gateway's own chat command, which resets the session the same way and answers with a
    /// run: this connection may not call `sessions.reset` (it needs `operator.admin`), or is offline and
    /// the command waits in the outbox. The reply is the run `runId`.
    case sentAsCommand(runId: String)
    /// `sessions.reset` failed (also raised as an alert). The session is as it was.
    case failed(GatewayError)
}

extension ChatViewModel {
    /// Starts the current session afresh. With `operator.admin` this is `sessions.reset`, the method the
    /// official clients call; without it (a chat client normally holds read and write only) the gateway's
    /// own `/new` or `/reset` command does it, as every channel's users do.
    public func resetSession(_ command: SessionResetCommand) async -> SessionResetOutcome {
        guard let session = connectionState.session, session.scopes.contains(OperatorScope.admin) else {
            return .sentAsCommand(runId: await send(command.commandText))
        }
        do {
            try await client.resetSession(sessionKey: currentSessionKey)
        } catch {
            raise(error)
            return .failed(error)
        }
        await refreshHistory()
        return .reset
    }
}
