import Logging
import OpenClawProtocol

/// What arrives on the socket: frames dispatched in order, the socket's end, and the silence watch.
extension GatewayConnection {
    /// Where the handshake stands, for the frames received.
    enum Phase: Equatable {
        case connecting
        case connected(ProtocolVersion)
        case other

        init(_ state: ConnectionState) {
            switch state {
            case .connecting: self = .connecting
            case .connected(let session): self = .connected(session.protocolVersion)
            case .disconnected, .reconnecting, .failed: self = .other
            }
        }
    }

    /// One message or the socket's end (see ``receive(_:generation:)``, which notes the socket as
    /// heard from once per batch).
    private func dispatch(_ event: TransportEvent, generation socketGeneration: Int) {
        guard socketGeneration == generation else { return }
        switch event {
        case .text(let text):
            trace(.inbound, text)
            handle(decoded: Result { () throws(FrameDecodingError) in try codec.decode(text) }, size: text.utf8.count)
        case .binary(let bytes):
            if traceFrame != nil { trace(.inbound, String(decoding: bytes, as: UTF8.self)) }
            handle(decoded: Result { () throws(FrameDecodingError) in try codec.decode(bytes) }, size: bytes.count)
        case .closed(let code, let reason):
            releaseHeldEvents()
            handleRemoteClose(code: code, reason: reason)
        case .tooLarge(let limit):
            releaseHeldEvents()
            socketEnded(.inboundTooLarge(limitBytes: limit))
        }
    }

    static let maxEarlyEvents = 256
    /// Frames handled in one turn of the actor at most, so a subscriber's buffer and the early events
    /// overshoot their marks by less than this before the reader checks them.
    package static let framesPerTurn = 64

    /// What the socket's reader must wait for after a batch of frames.
    struct ReadOutcome {
        /// A request is pending: subscribers hold the reader back only past their request headroom.
        var requestPending: Bool
        /// `maxEarlyEvents` events wait for the handshake to finish.
        var handshakeBacklog: Bool
    }

    func receive(_ events: [TransportEvent], generation socketGeneration: Int) -> ReadOutcome {
        // One reading of the clock per batch, not per frame: the frames of one read arrived together, and
        // nothing between them can look (a `.closed` comes last, alone or after the frames).
        if socketGeneration == generation, events.contains(where: \.isMessage) { heardFrom() }
        heldEvents = []
        for event in events { dispatch(event, generation: socketGeneration) }
        releaseHeldEvents()
        heldEvents = nil
        return ReadOutcome(
            requestPending: hasPendingRequests,
            handshakeBacklog: socketGeneration == generation && phase == .connecting
                && earlyEvents.count >= Self.maxEarlyEvents)
    }

    /// To the subscribers, in order: held while a batch of frames is handled, at once otherwise.
    func publish(_ event: GatewayEvent, cost: Int = 0, flow: EventFlow = .plain) {
        let publication = EventHub.Publication(event: event, cost: cost, flow: flow)
        if heldEvents == nil {
            eventHub.publish([publication])
        } else {
            heldEvents?.append(publication)
        }
    }

    /// Hands the held events over before anything else can be seen to happen (a response resolved, the
    /// socket closed, a challenge answered): a subscriber never sees the effect before the events that
    /// preceded its frame.
    func releaseHeldEvents() {
        guard let held = heldEvents, !held.isEmpty else { return }
        heldEvents = []
        eventHub.publish(held)
    }

    /// Publishes the events that arrived between `hello-ok` and the end of the handshake.
    func publishEarlyEvents() {
        let events = earlyEvents
        earlyEvents = []
        for (event, size) in events { handle(event: event, size: size) }
        releaseEarlyEventWaiters()
    }

    /// Holds the socket's reader while `maxEarlyEvents` events wait for the handshake to finish.
    func waitForHandshake(generation socketGeneration: Int) async {
        guard socketGeneration == generation, phase == .connecting, earlyEvents.count >= Self.maxEarlyEvents
        else { return }
        await withCheckedContinuation { earlyEventWaiters.append($0) }
    }

    func releaseEarlyEventWaiters() {
        let waiters = earlyEventWaiters
        earlyEventWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    func heardFrom() {
        lastInbound = .now
        probeSentAt = nil
    }

    func handle(decoded: Result<GatewayFrame, FrameDecodingError>, size: Int) {
        switch decoded {
        case .failure(let error):
            logger.warning("ignored an unreadable frame", metadata: ["error": "\(error)"])
            publish(.malformedFrame(error))
        case .success(.response(let response)):
            releaseHeldEvents()
            if !pending.resolve(id: response.id, with: .success(response)) {
                logger.debug("ignored a response to no pending request", metadata: ["id": "\(response.id)"])
            }
        case .success(.event(let event)):
            handle(event: event, size: size)
        case .success(.request):
            publish(.unknownFrame(type: "req"))
        case .success(.unknown(let type, _)):
            logger.debug("ignored a frame of unknown type", metadata: ["type": "\(type)"])
            publish(.unknownFrame(type: type))
        }
    }

    func handle(event: EventFrame, size: Int) {
        if event.event == GatewayEventName.connectChallenge {
            releaseHeldEvents()
            let parsed = ConnectChallenge.parse(event.payload).mapError(GatewayError.invalidChallenge)
            resolveChallenge(parsed, generation: generation)
            return
        }
        let protocolVersion: ProtocolVersion
        switch phase {
        case .connected(let version): protocolVersion = version
        case .connecting:
            // Events right behind `hello-ok` can be read before the handshake's continuation runs:
            // kept (a bounded number) and published once the session exists.
            // Past `maxEarlyEvents` the reader waits for the handshake (`waitForHandshake`): none is lost.
            earlyEvents.append((event, size))
            return
        case .other:
            return
        }
        if let seq = event.seq {
            if let last = lastSeq, seq > last + 1 {
                publish(.gap(expected: last + 1, received: seq))
            }
            lastSeq = max(seq, lastSeq ?? seq)
        }
        if event.event == GatewayEventName.shutdown {
            pendingShutdown = ShutdownEvent(json: event.payload)
        }
        publish(.event(event), cost: size, flow: flow(of: event, protocolVersion: protocolVersion))
    }

    /// How the event hub may merge this event while a subscriber is behind: the protocol layer says
    /// which events stand in for earlier ones (`EventFrame.coalescing(on:)`); the hub only queues.
    /// On a v4 socket nothing is cumulative, so nothing needs a barrier either (each socket's first and
    /// last events end all merging).
    func flow(of event: EventFrame, protocolVersion: ProtocolVersion) -> EventFlow {
        switch event.coalescing(on: protocolVersion) {
        case .distinct: .plain
        case .replacesEarlier(let key): .cumulative(key: key)
        case .endsReplacement(let key): .barrier(key: key)
        }
    }

    func handleRemoteClose(code: Int?, reason closeText: String?) {
        let reason = DisconnectReason.from(closeCode: code, reason: closeText, pendingShutdown: pendingShutdown)
        let handshakeError = GatewayErrorClassifier.handshakeClose(
            code: code, reason: closeText, pendingShutdown: pendingShutdown)
        socketEnded(reason, handshakeError: handshakeError)
    }

    /// The socket is gone for `reason`: the connection ends, or the handshake in progress fails with
    /// `handshakeError` (by default, the connection lost for `reason`).
    func socketEnded(_ reason: DisconnectReason, handshakeError: GatewayError? = nil) {
        if state.isConnected {
            invalidateSocket()
            pending.failAll(with: .connectionLost(reason))
            connectionEnded(reason)
        } else {
            // Still handshaking: whoever waits learns why, and the connect attempt reports it.
            let error = handshakeError ?? .connectionLost(reason)
            resolveChallenge(.failure(error), generation: generation)
            pending.failAll(with: error)
            // `hello-ok` may already be read and the handshake about to complete: it must not.
            closedDuringHandshake = error
        }
    }

    // MARK: - Liveness

    /// Silence is a question, not a verdict. Some gateways advertise a tick interval and never tick;
    /// closing them after two silent intervals dropped healthy connections every 20 s. So after one
    /// silent interval the watch sends a WebSocket ping; any frame (its pong included) answers it. Only
    /// when the silence reaches `tickTolerance` intervals with the ping unanswered is the socket closed
    /// (4000, `tickTimeout`): a dead socket is detected within the same bound as before, a quiet one
    /// that answers stays connected for as long as it answers.
    func startLivenessWatch(tickIntervalMs: Int, generation socketGeneration: Int) {
        livenessTask?.cancel()
        let interval = tickIntervalMs.clamped(to: PolicyBounds.tickIntervalMs)
        let tolerance = configuration.tickTolerance.clamped(to: PolicyBounds.tickTolerance)
        let probeAfter = Duration.milliseconds(interval * max(1, tolerance - 1))
        let allowedSilence = Duration.milliseconds(interval * tolerance)
        let checkEvery = Duration.milliseconds(max(20, interval / 4))
        livenessTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: checkEvery)
                guard !Task.isCancelled, let self else { return }
                let verdict = await self.checkLiveness(
                    probeAfter: probeAfter, allowedSilence: allowedSilence, generation: socketGeneration)
                if verdict == .dead {
                    await self.teardown(
                        reason: .tickTimeout(silenceMs: allowedSilence.milliseconds),
                        closeCode: GatewayCloseCode.tickTimeout,
                        generation: socketGeneration
                    )
                    return
                }
            }
        }
    }

    enum LivenessVerdict { case alive, probing, dead }

    func checkLiveness(
        probeAfter: Duration, allowedSilence: Duration, generation socketGeneration: Int
    ) async -> LivenessVerdict {
        guard socketGeneration == generation, state.isConnected, let socket else { return .alive }
        let silence = silentFor(socket)
        if silence <= probeAfter { return .alive }
        if probeSentAt == nil {
            probeSentAt = .now
            logger.debug("the gateway went quiet; asking with a ping", metadata: ["url": "\(configuration.url)"])
            await socket.sendPing()
            return .probing
        }
        // The ping gets the rest of the allowance however late it went out (a busy machine delays
        // this watch): only then is silence a verdict.
        let probeAge = ContinuousClock.now - (probeSentAt ?? .now)
        return silence > allowedSilence && probeAge >= allowedSilence - probeAfter ? .dead : .probing
    }

    /// How long nothing has come from the socket: no frame processed, none waiting to be processed
    /// (a reader held back by a slow subscriber is not silence), no pong.
    func silentFor(_ socket: any WebSocketConnection) -> Duration {
        if socket.flow.bufferedFrames > 0 { return .zero }
        let lastHeard = max(lastInbound, socket.lastReceived)
        if lastHeard > lastInbound { heardFrom() }
        return ContinuousClock.now - lastHeard
    }

    func isSilent(longerThan allowed: Duration, generation socketGeneration: Int) -> Bool {
        guard socketGeneration == generation, state.isConnected, let socket else { return false }
        return silentFor(socket) > allowed
    }
}
