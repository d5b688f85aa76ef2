import OpenClawChat

/// What the interactive chat says as it quits: what goes on without it, and what stays on this device.
extension InteractiveChat {
    /// Quitting before a reply came: the run goes on at the gateway, where history will show it.
    func sayWhatIsLeftRunning(_ count: Int) {
        // Only runs the gateway took: a message it never acknowledged is told about with the outbox.
        let acknowledged = chat.outbox.contains { $0.state == .accepted } || chat.runningReply != nil
        guard count > 0, acknowledged else { return }
        terminal.errorLine(
            terminal.styled(
                "Quit before the reply came: the run goes on at the gateway; 'openclaw-chat history' shows its "
                    + "reply.", .yellow))
    }

    /// Quitting with messages not yet delivered is allowed (they stay in this device's outbox), but not
    /// in silence: a script or a person could take the exit for delivery.
    func sayWhatStaysQueued() async {
        let waiting = await chat.waitingForDelivery()
        // Handed over without an answer (the gateway may have it) or never handed over: told apart.
        let unanswered = waiting.stored.count { $0.state != .queued }
        let kept = waiting.stored.count - unanswered
        let lost = waiting.inMemoryOnly.count
        if kept > 0 {
            let messages = kept == 1 ? "1 message was" : "\(kept) messages were"
            terminal.errorLine(
                terminal.styled(
                    "\(messages) not delivered yet: kept on this device, sent the next time openclaw-chat "
                        + "connects to this gateway.", .yellow))
        }
        if unanswered > 0 {
            let messages = unanswered == 1 ? "1 message" : "\(unanswered) messages"
            terminal.errorLine(
                terminal.styled(
                    "The gateway never acknowledged \(messages); it may not have arrived. Kept on this device and "
                        + "sent again the next time openclaw-chat connects to this gateway (with the same key: "
                        + "never doubled while the gateway remembers it).", .yellow))
        }
        if !pendingAttachments.isEmpty {
            let files =
                pendingAttachments.count == 1
                ? "1 attached file was" : "\(pendingAttachments.count) attached files were"
            terminal.errorLine(terminal.styled("\(files) not sent: no message followed /attach.", .yellow))
        }
        if lost > 0 {
            let messages = lost == 1 ? "1 message was" : "\(lost) messages were"
            terminal.errorLine(
                terminal.styled(
                    "\(messages) not delivered and could not be kept on this device (see the warning above): "
                        + "send again later.",
                    .yellow))
        }
    }
}
