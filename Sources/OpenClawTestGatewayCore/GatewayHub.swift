import Foundation
import Logging
import OpenClawGateway
import OpenClawProtocol

/// The gateway behind one actor: the peers (one per socket), the router, and what every feature
/// shares (output, frame `seq`, faults, ticks).
///
/// The transport feeds it inbound messages and drains each socket's outbound queue. A request is
/// routed (`GatewayRouter`) to the feature that owns its method: `ConnectFeature`, `ChatFeature`,
/// `SessionsFeature`, `ApprovalsFeature`, `NodeRelayFeature` or `PairingFeature`, each holding its own
/// state and running in the hub's isolation (it is handed the hub as an `isolated` parameter), so
/// everything observable is still decided here, in one order.
package actor GatewayHub {
    var configuration: TestGatewayConfiguration
    var faults = FaultPlan()
    /// The duplicate/reorder faults' choices, from ``FaultPlan/seed``.
    var faultRandom = SeededRandom(seed: 0)
    /// Every socket, by connection number, from its upgrade until it is gone.
    var peers: [Int: PeerSession] = [:]
    /// The process-wide frame `seq` of ``FrameSeqStyle/global``.
    var globalSeq = 0
    /// Requests received after the handshake, by method (inspection).
    var requestCounts: [String: Int] = [:]
    /// When each method's latest request was taken up (for timing a client's start from outside it).
    var lastArrivals: [String: ContinuousClock.Instant] = [:]
    /// The params of the latest request of each method, as received.
    var lastParams: [String: JSONValue] = [:]
    var ticksPaused = false
    /// Ticks broadcast so far (to every handshaken socket).
    var ticksBroadcast = 0
    let startedAtMs: Int
    let logger: Logger

    // The features: each holds its own state and is reached only from the hub's isolation.
    let connect: ConnectFeature
    let pairing = PairingFeature()
    let sessions = SessionsFeature()
    let chat: ChatFeature
    let approvals = ApprovalsFeature()
    let nodes = NodeRelayFeature()

    package init(configuration: TestGatewayConfiguration, logger: Logger) {
        self.configuration = configuration
        self.connect = ConnectFeature(configuration: configuration)
        self.chat = ChatFeature(configuration: configuration)
        self.logger = logger
        self.startedAtMs = Self.nowMs()
        _ = sessions.store.ensure(SessionStore.mainSessionKey, newSessionId: Self.newId(), nowMs: startedAtMs)
    }

    static func nowMs() -> Int { Int(UnixTime.nowMs()) }
    static func newId() -> String { RequestID.make() }
    /// A transcript entry's short id.
    static func entryId() -> String { String(newId().prefix(8)) }
    var v4: Bool { configuration.speaksV4Shapes }
    /// Which feature answers which method on this gateway.
    var router: GatewayRouter { GatewayRouter(v4: v4, quirks: configuration.quirks) }

    // MARK: Socket lifecycle

    /// A socket finished its upgrade: send the challenge (unless a fault says otherwise), arm the
    /// handshake timer.
    package func opened(_ handle: ConnectionHandle) {
        let state = PeerSession(handle: handle, connId: Self.newId(), nonce: Self.newId())
        peers[handle.id] = state
        if !faults.omitChallenge {
            if let delay = faults.challengeDelayMs, delay > 0 {
                Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(delay))
                    await self?.sendChallenge(to: handle.id)
                }
            } else {
                sendChallenge(to: handle.id)
            }
        }
        let timeout = configuration.handshakeTimeoutMs
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(timeout))
            await self?.handshakeTimerFired(for: handle.id)
        }
    }

    func sendChallenge(to id: Int) {
        guard let connection = peers[id], connection.phase == .awaitingConnect else { return }
        let challenge = ConnectChallenge(nonce: connection.nonce, ts: Self.nowMs())
        send(EventFrame(event: GatewayEventName.connectChallenge, payload: challenge.json).json, to: id)
    }

    private func handshakeTimerFired(for id: Int) {
        guard peers[id]?.phase == .awaitingConnect else { return }
        close(id, code: GatewayCloseCode.normal, reason: nil)
    }

    /// The socket is gone (closed by either side or dropped).
    package func closed(_ id: Int) {
        guard let connection = peers.removeValue(forKey: id) else { return }
        nodes.peerClosed(id, in: self)
        connect.peerClosed(connection, in: self)
    }

    /// One inbound text or binary message.
    package func received(_ bytes: [UInt8], from id: Int) {
        guard let connection = peers[id] else { return }
        tap(.received, .gateway, String(decoding: bytes, as: UTF8.self), connection: id)
        switch connection.phase {
        case .closing:
            return
        case .awaitingConnect:
            receivedBeforeHandshake(bytes, from: id)
        case .open:
            receivedAfterHandshake(bytes, from: id)
        }
    }

    private func receivedBeforeHandshake(_ bytes: [UInt8], from id: Int) {
        guard bytes.count <= GatewayLimits.maxPreauthPayloadBytes else {
            close(id, code: GatewayCloseCode.messageTooBig, reason: "preauth payload too large")
            return
        }
        guard let json = try? JSONParser().parse(bytes), ProtocolShapes.requestFrame.problems(in: json).isEmpty,
            let requestId = json["id"]?.stringValue, let method = json["method"]?.stringValue
        else {
            close(id, code: GatewayCloseCode.policyViolation, reason: "invalid request frame")
            return
        }
        guard method == GatewayMethodName.connect else {
            let message = "invalid handshake: first request must be connect"
            respond(to: id, requestId: requestId, error: ErrorShape(code: .invalidRequest, message: message))
            close(id, code: GatewayCloseCode.policyViolation, reason: message)
            return
        }
        connect.handleConnect(requestId: requestId, params: json["params"], from: id, in: self)
    }

    private func receivedAfterHandshake(_ bytes: [UInt8], from id: Int) {
        let json: JSONValue
        do {
            json = try JSONParser().parse(bytes)
        } catch {
            let message = "invalid request frame: \(error)"
            respond(to: id, requestId: "invalid", error: ErrorShape(code: .invalidRequest, message: message))
            return
        }
        let problems = ProtocolShapes.requestFrame.problems(in: json)
        guard problems.isEmpty, let requestId = json["id"]?.stringValue, let method = json["method"]?.stringValue
        else {
            let requestId = json["id"]?.nonEmptyStringValue ?? "invalid"
            let message = "invalid request frame: " + problems.joined(separator: "; ")
            respond(to: id, requestId: requestId, error: ErrorShape(code: .invalidRequest, message: message))
            return
        }
        let request = RequestFrame(id: requestId, method: method, params: json["params"])
        if faults.ignoreRequests.contains(method) {
            // Counted all the same: a test waits for the request it knows will never be answered.
            requestCounts[method, default: 0] += 1
            lastArrivals[method] = .now
            return
        }
        let delay = faults.delayResponsesMs
        if delay > 0 {
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(delay))
                await self?.handle(request, from: id)
            }
        } else {
            handle(request, from: id)
        }
    }

    // MARK: Output

    /// Queues a frame (a response or targeted event) with no frame `seq`.
    func send(_ frame: JSONValue, to id: Int, delayMs: Int = 0) {
        guard let connection = peers[id], connection.phase != .closing else { return }
        let outbound = configuration.quirks.outbound(frame)
        let text = JSONSerializer.string(outbound)
        enqueue(text, origin: outbound == frame ? .gateway : .alteredByQuirk, on: connection.handle, delayMs: delayMs)
    }

    func respond(to id: Int, requestId: String, payload: JSONValue) {
        send(ResponseFrame(id: requestId, ok: true, payload: payload).json, to: id)
    }

    func respond(to id: Int, requestId: String, error: ErrorShape, payload: JSONValue? = nil) {
        send(ResponseFrame(id: requestId, ok: false, payload: payload, error: error).json, to: id)
    }

    /// A targeted event: no frame `seq`.
    func sendTargetedEvent(_ event: String, payload: JSONValue, to id: Int) {
        send(EventFrame(event: event, payload: payload).json, to: id, delayMs: faults.eventDelayMs)
    }

    /// A broadcast event to every open socket that `include` accepts, with the frame `seq` of
    /// ``TestGatewayConfiguration/frameSeq``: each socket's own counter, or the process-wide one, taken
    /// once before the sockets are filtered. Returns the sockets it was queued on.
    @discardableResult
    func broadcast(
        _ event: String,
        payload: JSONValue,
        withStateVersion: Bool = false,
        include: (PeerSession) -> Bool = { _ in true }
    ) -> [Int] {
        var reached: [Int] = []
        let global = configuration.frameSeq == .global
        if global { globalSeq += 1 }
        for id in peers.keys.sorted() {
            guard var connection = peers[id], connection.isOpen, include(connection) else { continue }
            if global {
                connection.broadcastEvents += 1
                peers[id] = connection
                let stateVersion = withStateVersion ? currentStateVersion : nil
                let frame = EventFrame(event: event, payload: payload, seq: globalSeq, stateVersion: stateVersion)
                let text = JSONSerializer.string(frame.json)
                enqueue(text, origin: .gateway, on: connection.handle, delayMs: faults.eventDelayMs)
                reached.append(id)
                continue
            }
            if let skipAfter = faults.skipSeqAfterEvents, !connection.seqSkipped,
                connection.broadcastEvents >= skipAfter
            {
                connection.nextSeq += 1
                connection.seqSkipped = true
            }
            let seq = connection.nextSeq
            connection.nextSeq += 1
            connection.broadcastEvents += 1
            peers[id] = connection
            let stateVersion = withStateVersion ? currentStateVersion : nil
            let frame = EventFrame(event: event, payload: payload, seq: seq, stateVersion: stateVersion)
            let outbound = configuration.quirks.outbound(frame.json)
            let text = JSONSerializer.string(outbound)
            enqueue(
                text, origin: outbound == frame.json ? .gateway : .alteredByQuirk, on: connection.handle,
                delayMs: faults.eventDelayMs)
            reached.append(id)
        }
        return reached
    }

    /// Queues a close frame; the socket takes no more input or output.
    func close(_ id: Int, code: Int, reason: String?) {
        guard var connection = peers[id], connection.phase != .closing else { return }
        connection.phase = .closing
        peers[id] = connection
        connection.handle.enqueue(.close(code: code, reason: reason.map(Self.closeReason)))
    }

    /// Queues an abrupt TCP close after what is already queued.
    func drop(_ id: Int) {
        guard var connection = peers[id], connection.phase != .closing else { return }
        connection.phase = .closing
        peers[id] = connection
        connection.handle.enqueue(.drop)
    }

    /// Close reasons are cut to 123 bytes by the WebSocket protocol; the gateway cuts at 120.
    static func closeReason(_ text: String) -> String {
        var bytes = Array(text.utf8.prefix(120))
        while String(validating: bytes, as: UTF8.self) == nil, !bytes.isEmpty { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    var currentStateVersion: StateVersion { connect.stateVersion }

    // MARK: Server-initiated

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
