import Logging
import OpenClawProtocol

/// What arrives on the socket: frames dispatched in order, the socket's end, and the silence watch.
extension GatewayConnection {
    func receive(_ event: TransportEvent, generation socketGeneration: Int) {
        guard socketGeneration == generation else { return }
        switch event {
        case .text(let text):
            lastInbound = .now
            trace(.inbound, text)
            handle(decoded: Result { () throws(FrameDecodingError) in try codec.decode(text) })
        case .binary(let bytes):
            lastInbound = .now
            if traceFrame != nil { trace(.inbound, String(decoding: bytes, as: UTF8.self)) }
            handle(decoded: Result { () throws(FrameDecodingError) in try codec.decode(bytes) })
        case .closed(let code):
            handleRemoteClose(code: code)
        }
    }

    func handle(decoded: Result<GatewayFrame, FrameDecodingError>) {
        switch decoded {
        case .failure(let error):
            logger.warning("ignored an unreadable frame", metadata: ["error": "\(error)"])
            eventHub.publish(.malformedFrame(error))
        case .success(.response(let response)):
            if !pending.resolve(id: response.id, with: .success(response)) {
                logger.debug("ignored a response to no pending request", metadata: ["id": "\(response.id)"])
            }
        case .success(.event(let event)):
            handle(event: event)
        case .success(.request):
            eventHub.publish(.unknownFrame(type: "req"))
        case .success(.unknown(let type, _)):
            logger.debug("ignored a frame of unknown type", metadata: ["type": "\(type)"])
            eventHub.publish(.unknownFrame(type: type))
        }
    }

    func handle(event: EventFrame) {
        if event.event == GatewayEventName.connectChallenge {
            let parsed = ConnectChallenge.parse(event.payload).mapError(GatewayError.invalidChallenge)
            resolveChallenge(parsed, generation: generation)
            return
        }
        guard state.isConnected else { return }
        if let seq = event.seq {
            if let last = lastSeq, seq > last + 1 {
                eventHub.publish(.gap(expected: last + 1, received: seq))
            }
            lastSeq = max(seq, lastSeq ?? seq)
        }
        if event.event == GatewayEventName.shutdown {
            pendingShutdown = ShutdownEvent(json: event.payload)
        }
        eventHub.publish(.event(event))
    }

    func handleRemoteClose(code: Int?) {
        let reason = DisconnectReason.from(closeCode: code, pendingShutdown: pendingShutdown)
        if state.isConnected {
            invalidateSocket()
            pending.failAll(with: .connectionLost(reason))
            connectionEnded(reason)
        } else {
            // Still handshaking: whoever waits learns why, and the connect attempt reports it.
            let error = GatewayErrorClassifier.handshakeClose(code: code, pendingShutdown: pendingShutdown)
            resolveChallenge(.failure(error), generation: generation)
            pending.failAll(with: error)
        }
    }

    // MARK: - Liveness

    func startLivenessWatch(tickIntervalMs: Int, generation socketGeneration: Int) {
        livenessTask?.cancel()
        let allowedSilence = Duration.milliseconds(tickIntervalMs * max(1, configuration.tickTolerance))
        let checkEvery = Duration.milliseconds(max(20, tickIntervalMs / 4))
        livenessTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: checkEvery)
                guard !Task.isCancelled, let self else { return }
                if await self.isSilent(longerThan: allowedSilence, generation: socketGeneration) {
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

    func isSilent(longerThan allowed: Duration, generation socketGeneration: Int) -> Bool {
        socketGeneration == generation && state.isConnected && ContinuousClock.now - lastInbound > allowed
    }
}
