import OpenClawApprovals
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol

/// Approvals in the interactive chat: a request appears as a card between messages; `/approve`,
/// `/approve-always` and `/deny` (with an id, a unique prefix of it, or nothing when one is pending)
/// decide; `/approvals` lists them or shows one in full.
extension InteractiveChat {
    /// Prints each of `updates` as it comes, until cancelled.
    func show(_ updates: AsyncStream<ApprovalUpdate>, of approvals: ApprovalsClient) async {
        for await update in updates {
            guard !Task.isCancelled else { return }
            show(update, queue: await approvals.queue)
        }
    }

    private func show(_ update: ApprovalUpdate, queue: ApprovalQueue) {
        switch update {
        case .requested(let approval):
            terminal.clearStatus()
            printCard(approval, queue: queue)
            prompt()
        case .closed(let closed):
            guard printedApprovalOutcomes.insert(closed.id) else { return }
            terminal.clearStatus()
            terminal.line(ApprovalText.outcome(closed, shortId: String(closed.id.prefix(8)), terminal: terminal))
        case .undelivered(let approval, let sent):
            terminal.clearStatus()
            terminal.line(ApprovalText.undelivered(approval, sent: sent, shortId: queue.shortId(approval.id)))
            printCard(approval, queue: queue)
            prompt()
        case .availability(let availability):
            switch availability {
            case .active:
                terminal.line(terminal.styled("● approvals on: commands waiting for your approval appear here", .dim))
            case .scopeRefused, .missingScope: terminal.error(availability.message, hint: availability.nextStep)
            case .off, .waiting: break
            }
        }
    }

    private func printCard(_ approval: PendingApproval, queue: ApprovalQueue, full: Bool = false) {
        let lines = ApprovalText.card(
            approval, shortId: queue.shortId(approval.id), now: .now, full: full,
            commands: Self.slashCommand(for:), terminal: terminal)
        terminal.line(lines.joined(separator: "\n"))
    }

    static func slashCommand(for decision: ExecApprovalDecision) -> String {
        switch decision {
        case .allowOnce: "/approve"
        case .allowAlways: "/approve-always"
        case .deny: "/deny"
        }
    }

    /// `/approve`, `/approve-always`, `/deny`. Without `--approvals` the line goes to the gateway
    /// instead, whose own `/approve ID DECISION` command handles approvals of chat channels.
    func decideApproval(_ decision: ExecApprovalDecision, reference: String, typed: String) async {
        guard let approvals else {
            await send(reference.isEmpty ? typed : "\(typed) \(reference)")
            return
        }
        do {
            let closed = try await approvals.decide(reference, decision)
            guard printedApprovalOutcomes.insert(closed.id) else { return }
            terminal.line(ApprovalText.outcome(closed, shortId: String(closed.id.prefix(8)), terminal: terminal))
        } catch {
            switch error {
            case .expired(let id), .alreadyResolved(let id, _): _ = printedApprovalOutcomes.insert(id)
            default: break
            }
            terminal.error(error.message, hint: error.nextStep)
        }
    }

    /// `/approvals`: the pending ones; `/approvals ID`: one in full (every character, every argument).
    func showApprovals(_ reference: String) async {
        guard let approvals else {
            let availability = ApprovalAvailability.off
            terminal.error(availability.message, hint: availability.nextStep)
            return
        }
        let queue = await approvals.queue
        if reference.isEmpty {
            if queue.pending.isEmpty { terminal.line("no command is waiting for approval") }
            for approval in queue.pending { printCard(approval, queue: queue) }
            return
        }
        let words = reference.split(separator: " ").map(String.init)
        if words.first == "history" {
            await showApprovalHistory(approvals, count: words.count > 1 ? Int(words[1]) : nil)
            return
        }
        switch queue.match(reference) {
        case .success(let approval): printCard(approval, queue: queue, full: true)
        case .failure(let error):
            // Not pending here: the gateway's record says how it ended (a closed one by its full id).
            let recordedId: String? =
                switch error {
                case .expired(let id), .alreadyResolved(let id, _): id
                case .notFound(let id): id
                default: nil
                }
            if let recordedId, await showRecordedApproval(approvals, id: recordedId) { return }
            terminal.error(error.message, hint: error.nextStep)
        }
    }

    /// `approval.get` for an id no longer pending here; false when the gateway has nothing to say.
    private func showRecordedApproval(_ approvals: ApprovalsClient, id: String) async -> Bool {
        guard case .recorded(let snapshot)? = try? await approvals.recordedState(id) else { return false }
        terminal.line(ApprovalText.recorded(snapshot, terminal: terminal))
        return true
    }

    /// `/approvals history [N]`: the gateway's last N terminal approvals (`approval.history`).
    private func showApprovalHistory(_ approvals: ApprovalsClient, count: Int?) async {
        do {
            guard let page = try await approvals.history(limit: count ?? 10) else {
                terminal.error(
                    "This gateway keeps no approval history (approval.history is not among its methods).", hint: nil)
                return
            }
            if page.items.isEmpty { terminal.line("no decided or expired approval in the last 30 days") }
            for snapshot in page.items { terminal.line(ApprovalText.recorded(snapshot, terminal: terminal)) }
            if page.nextCursor != nil {
                terminal.line(
                    terminal.styled("  … older ones: /approvals history \(ApprovalHistoryParams.maxLimit)", .dim))
            }
        } catch {
            terminal.error(error.message, hint: error.nextStep)
        }
    }
}
