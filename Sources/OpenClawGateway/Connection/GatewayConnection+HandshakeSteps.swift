import Logging
import OpenClawProtocol

/// The steps of a handshake the machine asks for: the socket, the `connect` request, its answer.
extension GatewayConnection {
    /// Loads this device's identity and opens socket `id` (after closing `closing`), then tells the
    /// machine how it went.
    func openSocket(_ id: SocketID, after closing: [(socket: any WebSocketConnection, code: Int)]) {
        let identity: DeviceIdentity
        do {
            identity = try identityStore.loadOrCreate()
        } catch {
            start(perform(machine.socketOpenFailed(id, .localStorage(error.description))))
            return
        }
        logger.debug("connecting", metadata: ["url": "\(configuration.url)", "deviceId": "\(identity.deviceId)"])
        // A child of the owner: the actor's turn ends here and the open goes on without it; the connect
        // timeout bounds it, and a socket that opens for an attempt no longer current is closed.
        start { [weak self] in
            for close in closing { await close.socket.close(code: close.code) }
            guard let self else { return }
            let opened = await self.openTransport()
            await self.socketOpenFinished(id, identity: identity, opened)
        }
    }

    nonisolated func openTransport() async -> Result<any WebSocketConnection, GatewayError> {
        let transport = self.transport
        let url = configuration.url
        let maxFrame = configuration.maxInboundFrameBytes
        let outcome = await firstOf(timeout: configuration.connectTimeout) {
            () async -> Result<any WebSocketConnection, GatewayError> in
            do {
                return .success(try await transport.connect(to: url, maxFrameSize: maxFrame))
            } catch let error as TransportError {
                return .failure(.transport(error))
            } catch {
                return .failure(.transport(.other(String(describing: error))))
            }
        } onLateSuccess: { socket in
            await socket.close(code: GatewayCloseCode.normal)
        }
        return outcome ?? .failure(.transport(.timedOut))
    }

    /// A socket opened (or not): adopted when the machine still expects it, closed when it came too
    /// late (a `disconnect()` meanwhile).
    func socketOpenFinished(
        _ id: SocketID, identity: DeviceIdentity, _ opened: Result<any WebSocketConnection, GatewayError>
    ) async {
        switch opened {
        case .failure(let error):
            await perform(machine.socketOpenFailed(id, error)).run()
        case .success(let socket):
            guard machine.expectsSocket(id) else {
                await socket.close(code: GatewayCloseCode.normal)
                return
            }
            adopt(socket, id: id, identity: identity)
            await perform(machine.socketOpened(id)).run()
        }
    }

    private func adopt(_ socket: any WebSocketConnection, id: SocketID, identity: DeviceIdentity) {
        let pending = self.pending
        let owner = runningOwner()
        let writer = OutboundWriter(socket: socket) { [weak self] request in
            // A request's failure needs no turn of the actor; the handshake's `connect` does.
            guard !pending.resolve(id: request, with: .failure(.connectionLost(.connectionLost))) else { return }
            // Called on the event loop, which must not wait for the actor: a child of the owner takes
            // the turn (none once the owner stopped: the handshake it would end is over).
            owner.start { [weak self] in await self?.writeFailed(request: request) }
        }
        live = LiveSocket(id: id, socket: socket, identity: identity, writer: writer)
        let queue = socket.events.queue
        let shortcut = ResponseShortcut(pending: pending, generation: id.rawValue, codec: codec, traceFrame: traceFrame)
        queue.readEarly(shortcut.read)
        let hub = eventHub
        // A child of the owner: ends at the socket's end, once the socket is dropped, or with the owner.
        owner.start { [weak self] in
            // What one read of the socket delivered is handled in one turn of the actor: a hop per
            // frame cost more than decoding a streamed delta.
            while !Task.isCancelled, let batch = await queue.nextFrames(upTo: Self.framesPerTurn) {
                let requestsStarted = hub.requestsStarted
                let outcome = await self?.receive(batch, generation: id.rawValue)
                queue.batchHandled()
                guard let outcome, outcome.socketCurrent else { return }
                // A subscriber that is behind stops this loop, and so the reading of the socket.
                await hub.waitForRoom(headroom: outcome.requestPending, requestsStartedBefore: requestsStarted)
            }
        }
    }

    /// Answers the challenge with `connect`; what goes wrong here ends the attempt at once.
    func sendConnect(
        _ id: SocketID, challenge: ConnectChallenge, request: String, scopes: [String], savedDeviceToken: Bool
    ) -> [ConnectionMachine.Action] {
        guard let live, live.id == id else { return [] }
        let params: ConnectParams
        do {
            params = try connectParams(
                identity: live.identity, challenge: challenge, scopes: scopes, useStoredDeviceToken: savedDeviceToken)
        } catch {
            return machine.handshakeFailed(id, .localStorage(error.description))
        }
        let text = FrameCodec.text(RequestFrame(id: request, method: "connect", params: params.json))
        let size = text.utf8.count
        guard size <= live.maxOutboundBytes else {
            return machine.handshakeFailed(id, .payloadTooLarge(bytes: size, limit: live.maxOutboundBytes))
        }
        // A reader held at a subscriber's mark may now read on, up to the request headroom.
        eventHub.requestStarted()
        live.writer.enqueue(.text(text), requestID: request) { [self] in trace(.outbound, text) }
        return []
    }

    /// The answer to `connect` on socket `id`: `hello-ok`, or a refusal.
    func connectAnswered(
        _ frame: ResponseFrame, socket id: SocketID, identity: DeviceIdentity
    )
        -> [ConnectionMachine.Action]
    {
        guard frame.ok else {
            let error = GatewayErrorClassifier.connectFailure(frame.error ?? ErrorShape(code: "UNKNOWN", message: ""))
            if case .authFailed(let failure) = error, failure.code == .authDeviceTokenMismatch {
                forgetDeviceToken(deviceId: identity.deviceId)
            }
            return machine.refused(id, error, savedTokenUsable: savedDeviceTokenUsable())
        }
        guard let hello = HelloOk(json: frame.payload).map(PolicyBounds.clamped) else {
            return machine.handshakeFailed(id, .invalidResponse(method: "connect", reason: "no hello-ok payload"))
        }
        guard let version = hello.protocolVersion else {
            return machine.handshakeFailed(id, .unsupportedProtocol(hello.protocolNumber))
        }
        if let auth = hello.auth, let token = auth.deviceToken {
            rememberDeviceToken(
                DeviceTokenRecord(token: token, role: auth.role, scopes: auth.scopes, issuedAtMs: auth.issuedAtMs),
                deviceId: identity.deviceId
            )
        }
        if let handoff = hello.auth?.deviceTokens, !handoff.isEmpty {
            rememberHandoffTokens(handoff, deviceId: identity.deviceId)
        }
        return machine.helloReceived(id, hello: hello, protocolVersion: version, deviceId: identity.deviceId)
    }

    /// Handles the answer to `connect` on socket `generation` as if it had just been read: nothing
    /// happens unless that socket's handshake is the one awaiting it.
    func completeHandshake(
        _ frame: ResponseFrame, identity: DeviceIdentity, generation: Int
    ) async -> Result<GatewaySession, GatewayError> {
        let id = SocketID(rawValue: generation)
        guard case .authenticating(let attempt, _, _) = machine.state, attempt.socket == id else {
            return .failure(.cancelled)
        }
        await perform(connectAnswered(frame, socket: id, identity: identity)).run()
        if let session = state.session, session.generation == generation { return .success(session) }
        return .failure(state.unavailableError)
    }

    /// A frame the socket could not write: its request fails, or, for `connect`, the handshake.
    func writeFailed(request: String) {
        let error = GatewayError.connectionLost(.connectionLost)
        if pending.resolve(id: request, with: .failure(error)) { return }
        guard let socket = machine.socketAwaitingHello(request: request) else { return }
        start(perform(machine.handshakeFailed(socket, error)))
    }
}
