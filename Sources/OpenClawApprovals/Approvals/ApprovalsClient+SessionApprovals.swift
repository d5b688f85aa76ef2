import OpenClawGateway
import OpenClawProtocol

/// Approvals as the chat's session's audience sees them (`session.approval`, 2026.7): where the
/// gateway offers the opt-in, the client subscribes to the followed session's messages with
/// `includeApprovals`, takes the replay of what is pending, and then each pending or terminal
/// transition, into the same queue as the `exec.approval.*` broadcasts (the same id closes once,
/// whichever word comes first). Only exec approvals are taken: a plugin approval's decisions are
/// not ones this client can send.
extension ApprovalsClient {
    /// Follows `key`'s approvals from now on (the chat's session; call again when it switches).
    public func followSession(_ key: String) async {
        guard followedSession != key else { return }
        followedSession = key
        if availability == .active, let session = await connection.session { subscribeToFollowedSession(session) }
    }

    /// Whether the gateway has the session audience: the subscribe method and the event.
    static func offersSessionApprovals(_ session: GatewaySession) -> Bool {
        session.hello.features.methods.contains(SessionApprovalNames.subscribeMethod)
            && session.hello.features.events.contains(SessionApprovalNames.event)
    }

    /// Subscribes the current socket to the followed session (leaving the one subscribed before on
    /// the same socket). A refusal (no paired device, an older gateway) leaves the broadcasts alone.
    func subscribeToFollowedSession(_ session: GatewaySession) {
        guard let key = followedSession, Self.offersSessionApprovals(session) else { return }
        let previous = subscribedSession.flatMap { $0.generation == session.generation ? $0.key : nil }
        guard previous != key else { return }
        subscribedSession = (key, session.generation)
        let generation = session.generation
        lifetime.replace(.sessionSubscription) { [weak self, connection] in
            if let previous {
                _ = try? await connection.call(SessionsMessagesUnsubscribeParams(key: previous))
            }
            do {
                let replay = try await connection.call(
                    SessionsMessagesSubscribeParams(key: key, includeApprovals: true))
                guard !Task.isCancelled, let replay else { return }
                await self?.applyReplay(replay, generation: generation)
            } catch {
                // Refused or lost: forgotten, so the next connection (or follow) asks again.
                await self?.subscriptionFailed(key, generation: generation)
            }
        }
    }

    private func subscriptionFailed(_ key: String, generation: Int) {
        if let current = subscribedSession, current.key == key, current.generation == generation {
            subscribedSession = nil
        }
    }

    private func applyReplay(_ replay: SessionApprovalReplay, generation: Int) async {
        guard await connection.session?.generation == generation else { return }
        for approval in replay.approvals where approval.status == .pending {
            receiveSessionApproval(approval, sessionKey: replay.sessionKey)
        }
    }

    func handleSessionApproval(_ payload: JSONValue?) {
        guard let event = SessionApprovalEvent(json: payload) else { return }
        // A late event of a session this client has left opens no card (a terminal one still closes).
        if event.phase == .pending, let followed = followedSession, event.sessionKey != followed,
            SessionKeyMatcher().canonical(event.sessionKey) != SessionKeyMatcher().canonical(followed)
        {
            return
        }
        switch event.phase {
        case .pending:
            receiveSessionApproval(event.approval, sessionKey: event.sourceSessionKey ?? event.sessionKey)
        case .terminal:
            closeSessionApproval(event.approval)
        }
    }

    private func receiveSessionApproval(_ approval: ApprovalSnapshot, sessionKey: String) {
        guard approval.kind == nil || approval.kind == "exec", approval.status == .pending else { return }
        let request = ExecApprovalRequest(sessionApproval: approval, sessionKey: sessionKey)
        guard let pending = queue.receive(request, at: .now, wallClockNowMs: wallClockMs()) else { return }
        publish(.requested(pending))
        armDeadline()
    }

    private func closeSessionApproval(_ approval: ApprovalSnapshot) {
        let outcome: ApprovalOutcome
        switch approval.status {
        case .pending: return
        case .expired: outcome = .expired
        case .cancelled: outcome = .withdrawn
        case .allowed, .denied, .other:
            if let decision = approval.decision {
                let ours = inFlight[approval.id] ?? queue.inDoubt[approval.id]
                outcome = .decided(decision, by: nil, byUs: ours == decision)
            } else {
                outcome = .resolvedOther(by: nil)
            }
        }
        if let closed = queue.close(approval.id, outcome) { publish(.closed(closed)) }
        armDeadline()
    }
}

extension ApprovalsClient {
    /// Follows the session a person is looking at, now and after every switch, until the returned task is
    /// cancelled or `sessionKeys` ends: the one place a front end ties the session audience to what it
    /// shows (a chat's `ChatSession.currentSessionKeys()`).
    public nonisolated func follow(sessionKeys: AsyncStream<String>) -> Task<Void, Never> {
        Task {
            for await key in sessionKeys {
                guard !Task.isCancelled else { return }
                await self.followSession(key)
            }
        }
    }
}
