import OpenClawApprovals
import OpenClawChat
import OpenClawGateway

/// Piped input (a script) is carried out line by line after the replies it asked for, so the output reads
/// in order: what the next line waits for.
extension InteractiveChat {
    /// Until every reply asked for has ended, or there is no connection to bring one (what is queued
    /// stays in the outbox for the next session).
    func waitForReplies() async {
        while replies.unfinished > 0, chat.connectionState.isConnected, !Task.isCancelled {
            await waitForChange(timeout: nil, of: chat, .connection) { [replies] in _ = replies.unfinished }
        }
    }

    /// Like ``waitForReplies()``, but also ends when a command waits for approval or a question for an
    /// answer: `/approve` or `/answer` in a script answers the reply it follows, which cannot end before.
    func waitForRepliesOrApproval() async {
        while replies.unfinished > 0, chat.connectionState.isConnected, !Task.isCancelled {
            if let approvals, await !approvals.pending.isEmpty { return }
            if let questions, await !questions.pending.isEmpty { return }
            // The approvals engine is an actor Observation cannot follow: its queue is looked at again
            // every 100 ms, while a script waits on a reply that may need its answer.
            await waitForChange(timeout: .milliseconds(100), of: chat, .connection) { [replies] in
                _ = replies.unfinished
            }
        }
    }
}
