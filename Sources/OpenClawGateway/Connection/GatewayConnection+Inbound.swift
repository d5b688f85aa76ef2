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
    private func dispatch(_ frame: InboundFrame, socket: SocketID) {
        guard live?.id == socket else { return }
        switch frame.event {
        case .text(let text):
            trace(.inbound, text)
            let decoded = frame.decoded ?? Result { () throws(FrameDecodingError) in try codec.decode(text) }
            handle(decoded: decoded, size: text.utf8.count)
        case .binary(let bytes):
            if traceFrame != nil { trace(.inbound, String(decoding: bytes, as: UTF8.self)) }
            let decoded = frame.decoded ?? Result { () throws(FrameDecodingError) in try codec.decode(bytes) }
            handle(decoded: decoded, size: bytes.count)
        case .closed(let code, let reason):
            releaseHeldEvents()
            socketEnded(socket, .closed(code: code, reason: reason))
        case .tooLarge(let limit):
            releaseHeldEvents()
            socketEnded(socket, .tooLarge(limitBytes: limit))
        }
    }

    /// The socket ended on the gateway's side: the machine says what follows.
    private func socketEnded(_ socket: SocketID, _ end: ConnectionMachine.SocketEnd) {
        // Whether the saved device token could answer a refusal given as a close reason: asked only
        // of a handshake (it reads the stores).
        let usable = machine.isHandshaking(on: socket) && savedDeviceTokenUsable()
        start(perform(machine.socketEnded(socket, end, savedTokenUsable: usable)))
    }

    /// Frames handled in one turn of the actor at most, so a subscriber's buffer overshoots its mark
    /// by less than this before the reader checks it.
    package static let framesPerTurn = 64

    /// What the socket's reader must wait for after a batch of frames.
    struct ReadOutcome {
        /// A request is pending (or the handshake under way): subscribers hold the reader back only
        /// past their request headroom.
        var requestPending: Bool
        /// The socket is still the connection's: when not, its reader stops.
        var socketCurrent = true
    }

    /// A batch of what socket `generation` delivered, handled in one turn.
    func receive(_ events: [TransportEvent], generation: Int) -> ReadOutcome {
        receive(events.map { InboundFrame(event: $0) }, generation: generation)
    }

    /// A batch of what socket `generation` delivered (some perhaps decoded as they arrived).
    func receive(_ frames: [InboundFrame], generation: Int) -> ReadOutcome {
        let socket = SocketID(rawValue: generation)
        // One reading of the clock per batch, not per frame: the frames of one read arrived together, and
        // nothing between them can look (a `.closed` comes last, alone or after the frames).
        if live?.id == socket, frames.contains(where: \.event.isMessage) { live?.lastInbound = .now }
        heldEvents = []
        for frame in frames { dispatch(frame, socket: socket) }
        releaseHeldEvents()
        heldEvents = nil
        return ReadOutcome(
            requestPending: hasPendingRequests || phase == .connecting, socketCurrent: live?.id == socket)
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

    func handle(decoded: Result<GatewayFrame, FrameDecodingError>, size: Int) {
        switch decoded {
        case .failure(let error):
            logger.warning("ignored an unreadable frame", metadata: ["error": "\(error)"])
            publish(.malformedFrame(error))
        case .success(.response(let response)):
            releaseHeldEvents()
            if pending.resolve(id: response.id, with: .success(response)) { return }
            // The answer to `connect` is handled as it is read: the events behind it belong to the
            // session it starts.
            if let socket = machine.socketAwaitingHello(request: response.id), let live, live.id == socket {
                start(perform(connectAnswered(response, socket: socket, identity: live.identity)))
            } else {
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
            guard let socket = live?.id else { return }
            let parsed = ConnectChallenge.parse(event.payload).mapError(GatewayError.invalidChallenge)
            start(perform(machine.challengeReceived(socket, parsed, request: RequestID.make())))
            return
        }
        let protocolVersion: ProtocolVersion
        switch phase {
        case .connected(let version): protocolVersion = version
        case .connecting:
            // Before `hello-ok` (the events behind it are read once the session exists): not ours yet.
            logger.debug("ignored an event before the handshake", metadata: ["event": "\(event.event)"])
            return
        case .other:
            return
        }
        if let seq = event.seq {
            let last = live?.lastSeq
            if let last, seq > last + 1 {
                publish(.gap(expected: last + 1, received: seq))
            }
            // Read before the assignment: the right side of an optional-chained assignment is
            // evaluated inside its access to `live`.
            let newest = max(seq, last ?? seq)
            live?.lastSeq = newest
        }
        if event.event == GatewayEventName.shutdown, let socket = live?.id {
            start(perform(machine.shutdownAnnounced(socket, ShutdownEvent(json: event.payload))))
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

    // MARK: - Liveness

    /// When anything last came from the socket: a frame processed, a pong; now while frames wait to be
    /// processed (a reader held back by a slow subscriber is not silence).
    func lastHeard(_ socket: any WebSocketConnection) -> ContinuousClock.Instant {
        if socket.flow.bufferedFrames > 0 { return .now }
        return max(live?.lastInbound ?? socket.lastReceived, socket.lastReceived)
    }

    func isSilent(longerThan allowed: Duration, generation: Int) -> Bool {
        guard let live, live.id.rawValue == generation, state.isConnected else { return false }
        return ContinuousClock.now - lastHeard(live.socket) > allowed
    }
}
