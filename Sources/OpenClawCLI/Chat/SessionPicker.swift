import OpenClawChat
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/session`: the gateway's sessions as a numbered list with the current one marked (the same list as
/// `/sessions`), and `/session N` or `/session KEY` to switch.
enum SessionPicker {
    /// The session `/session ARGUMENT` names: a number from the list shown last, else the key as typed.
    /// Nil for a number the list does not have.
    static func key(_ argument: String, sessions: [SessionSummary]) -> String? {
        let text = argument.trimming(.whitespaces)
        guard let number = Int(text) else { return text }
        return sessions.indices.contains(number - 1) ? sessions[number - 1].key : nil
    }
}

extension InteractiveChat {
    /// `/sessions` and `/session` without an argument: one numbered line per session, `●` on this one.
    func listSessions() async {
        await chat.refreshSessions()
        sessionChoices = chat.sessions
        let keys = chat.transcript.sessionKeys
        guard !sessionChoices.isEmpty else {
            terminal.line("the gateway lists no sessions yet; this one is \(currentSessionName)")
            return
        }
        for (index, session) in sessionChoices.enumerated() {
            let marker = keys.matches(session.key, chat.currentSessionKey) ? "●" : " "
            let key = SessionName.display(session.key, keys: keys)
            terminal.line(
                " \(marker) \(index + 1). \(terminal.styled(key, .bold))  \(TerminalText.escapedLine(session.title))")
        }
        terminal.line(terminal.styled("  /session N switches to one", .dim))
    }

    /// `/session N|KEY`.
    func chooseSession(_ argument: String) async {
        guard !argument.isEmpty else {
            await listSessions()
            return
        }
        guard Int(argument) == nil || !sessionChoices.isEmpty else {
            terminal.line("/session lists the sessions first; /session N then picks one of them")
            return
        }
        guard let key = SessionPicker.key(argument, sessions: sessionChoices) else {
            terminal.line("no session \(TerminalText.escapedLine(argument)): /session lists them")
            return
        }
        await chat.switchSession(to: key)
        terminal.line(terminal.styled("switched to \(currentSessionName)", .dim))
        showRecentHistory()
    }
}
