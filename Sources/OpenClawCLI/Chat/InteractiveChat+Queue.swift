import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// `/queue` and `/steer`: what a message typed while the agent is busy does.
///
/// A protocol 4 gateway takes the mode with each message (`chat.send` `queueMode`), so the choice is
/// this chat's and leaves the session's stored mode alone. An older gateway gets its own `/queue` or
/// `/steer` command as a message, which sets or does the same on its side.
extension InteractiveChat {
    /// `/queue` shows the mode; `/queue MODE` chooses it for this chat; `/queue default` clears it.
    func chooseQueueMode(_ argument: String) async {
        let word = argument.split(separator: " ").first.map(String.init) ?? ""
        if word.isEmpty {
            let mode = chat.queueMode?.rawValue ?? "the session's own (steer unless set otherwise)"
            terminal.line("queue mode: \(mode)")
            terminal.line(terminal.styled("  /queue steer|followup|collect|interrupt|default", .dim))
            return
        }
        let clears = ["default", "reset", "off"].contains(word.lowercased())
        guard clears || QueueMode(typed: word) != nil else {
            terminal.line("usage: /queue steer|followup|collect|interrupt|default")
            return
        }
        if chat.connectionState.isConnected, !chat.gatewayTakesQueueModes {
            terminal.line(terminal.styled("this gateway takes no mode per message: sending it /queue \(word)", .dim))
            await send("/queue \(argument)")
            return
        }
        chat.setQueueMode(clears ? nil : QueueMode(typed: word))
        terminal.line(Self.queueModeExplanation(chat.queueMode))
    }

    /// `/steer TEXT`: one message into the running reply, whatever the chat's mode.
    func steer(_ text: String) async {
        guard !text.isEmpty else {
            terminal.line("usage: /steer TEXT")
            return
        }
        if chat.connectionState.isConnected, !chat.gatewayTakesQueueModes {
            await send("/steer \(text)")
            return
        }
        let runId = await chat.steer(text)
        replies.follow(after: runId)
    }

    static func queueModeExplanation(_ mode: QueueMode?) -> String {
        switch mode {
        case nil: "messages typed during a reply follow the session's own queue mode"
        case .steer?: "messages typed during a reply steer it (joined into the running turn)"
        case .followup?: "messages typed during a reply wait, each answered after it"
        case .collect?: "messages typed during a reply wait, all answered together after it"
        case .interrupt?: "a message typed during a reply stops it and is answered instead"
        }
    }
}
