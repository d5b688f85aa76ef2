import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/new` and `/reset`: what the person typed, kept because the gateway's own command is its text.
public enum SessionResetCommand: String, Sendable, CaseIterable {
    case new
    case reset

    /// The gateway's chat command: `/new` or `/reset`.
    public var commandText: String { "/\(rawValue)" }
}

/// How ``ChatSession/resetSession(_:then:)`` started the session afresh.
public enum SessionResetOutcome: Sendable, Equatable {
    /// `sessions.reset` emptied the session, and the transcript now shows it empty.
    case reset
    /// `sessions.reset` emptied the session, then the words typed after the command were sent as the
    /// new session's first message (the gateway's own command takes them the same way).
    case resetThenSent(runId: String)
    /// Sent as the gateway's own chat command, which resets the session the same way and answers with a
    /// run: this connection may not call `sessions.reset` (it needs `operator.admin`). The reply is the run
    /// `runId`.
    case sentAsCommand(runId: String)
    /// Not connected (`notConnected`), or `sessions.reset` failed (then also raised as an alert). The
    /// session is as it was.
    case failed(GatewayError)
}

extension ChatSession {
    /// Starts the current session afresh. With `operator.admin` this is `sessions.reset`, the method the
    /// official clients call; without it (a chat client normally holds read and write only) the gateway's
    /// own `/new` or `/reset` command does it, as every channel's users do.
    ///
    /// Refused while offline: queued, the command would wipe the session whenever the outbox is next
    /// delivered, maybe days and another launch later.
    public func resetSession(_ command: SessionResetCommand, then text: String = "") async -> SessionResetOutcome {
        guard let session = connectionState.session else { return .failed(.notConnected) }
        let words = text.trimming(.whitespaces)
        guard session.scopes.contains(OperatorScope.admin) else {
            return .sentAsCommand(
                runId: await send(words.isEmpty ? command.commandText : command.commandText + " " + words))
        }
        do {
            try await client.resetSession(sessionKey: currentSessionKey)
        } catch {
            raise(error)
            return .failed(error)
        }
        // A fetch already running read the page before the reset: it goes again, and is waited for.
        await refreshHistoryAndWait()
        if !words.isEmpty { return .resetThenSent(runId: await send(words)) }
        return .reset
    }
}
