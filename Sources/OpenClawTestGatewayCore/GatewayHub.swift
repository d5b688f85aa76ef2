import Logging
import OpenClawGateway
import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    var requestLog = RequestLog()
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
                // Unstructured: a fault's delay must not hold the hub's actor; the socket may be gone by then.
                Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(delay))
                    await self?.sendChallenge(to: handle.id)
                }
            } else {
                sendChallenge(to: handle.id)
            }
        }
        let timeout = configuration.handshakeTimeoutMs
        // Unstructured: the handshake deadline outlives `opened`; a fire after the handshake finds nothing to do.
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
            requestLog.noteArrival(method)
            return
        }
        let delay = faults.delayResponsesMs
        if delay > 0, faults.delayedMethods.isEmpty || faults.delayedMethods.contains(method) {
            // Unstructured: a delayed answer (a fault) must not hold the hub's actor for the others.
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(delay))
                await self?.handle(request, from: id)
            }
        } else {
            handle(request, from: id)
        }
    }
}
