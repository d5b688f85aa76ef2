import OpenClawGateway
import OpenClawProtocol

/// What the gateway does of its own accord or on a test's word (through `TestGateway`): ticks,
/// faults, drops, shutdown, raw frames, auth rotation, pairing and run control.
extension GatewayHub {
    /// A broadcast only sockets with `operator.approvals` (or admin) may see: on a gateway with a
    /// global frame `seq` every other socket sees a gap, which is routine there, not loss.
    func broadcastHiddenEvent() {
        broadcast(
            "exec.approval.requested",
            payload: ["id": .string(Self.newId()), "request": ["command": "true"], "createdAtMs": .int(Self.nowMs())],
            include: {
                ScopePolicy.allows($0.scopes, OperatorScope.admin) || $0.scopes.contains("operator.approvals")
            })
    }

    func tick() {
        guard !ticksPaused, !configuration.quirks.contains(.noTicks) else { return }
        ticksBroadcast += 1
        broadcast(GatewayEventName.tick, payload: TickEvent(ts: Self.nowMs()).json)
    }

    func setTicksPaused(_ paused: Bool) { ticksPaused = paused }

    func setFaults(_ plan: FaultPlan) {
        faults = plan
        faultRandom = SeededRandom(seed: plan.seed)
    }

    func dropAll() {
        for id in peers.keys.sorted() {
            guard var connection = peers[id] else { continue }
            connection.phase = .closing
            peers[id] = connection
            connection.handle.dropNow()
        }
    }

    func shutdown(restartExpectedMs: Int?) {
        let event = ShutdownEvent(reason: "gateway stopping", restartExpectedMs: restartExpectedMs)
        broadcast(GatewayEventName.shutdown, payload: event.json)
        for id in peers.keys.sorted() {
            close(id, code: GatewayCloseCode.serviceRestart, reason: "service restart")
        }
    }

    func sendRaw(_ texts: [String]) {
        for connection in peers.values where connection.isOpen {
            for text in texts { enqueue(text, origin: .injected, on: connection.handle, delayMs: 0) }
        }
    }

    /// The sockets that completed the handshake and are still open.
    func openHandles() -> [ConnectionHandle] {
        peers.keys.sorted().compactMap { id in peers[id].flatMap { $0.isOpen ? $0.handle : nil } }
    }

    /// New shared secret: sockets admitted by the old one are closed with 4001.
    func rotateSharedAuth(to auth: TestGatewayAuth) {
        connect.sharedAuth = auth
        for id in peers.keys.sorted() {
            guard let connection = peers[id], connection.isOpen,
                connection.authMethod == .shared || connection.authMethod == .none
            else {
                continue
            }
            close(id, code: GatewayCloseCode.authChanged, reason: "gateway auth changed")
        }
    }

    func issueBootstrapToken(_ grant: BootstrapGrant) -> String { pairing.bootstrapTokens.issue(grant) }

    func approvePairing(requestId: String) { pairing.approve(requestId: requestId, in: self) }

    func removePairedDevice(_ deviceId: String) { pairing.registry.remove(deviceId: deviceId) }

    func revokeDeviceTokens() { pairing.registry.revokeAllTokens() }

    /// Cancels every run (gateway stop).
    func cancelAllRuns() { chat.cancelAllRuns() }
}
