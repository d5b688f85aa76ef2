import Logging
import OpenClawProtocol

/// One connection to an OpenClaw gateway: handshake, requests, events and liveness over a WebSocket.
///
/// An actor because everything about a socket (pending requests, sequence numbers, timers) must change
/// in one order. Every socket gets a generation number; work scheduled for an older socket (late frames,
/// timers, callbacks) checks it and does nothing, so a reconnect can never be disturbed by the past.
public actor GatewayConnection {
    public nonisolated let configuration: GatewayConnectionConfiguration
    private let transport: any WebSocketTransport
    private let identityStore: any DeviceIdentityStore
    private let tokenStore: any DeviceTokenStore
    private let logger: Logger
    private let traceFrame: (@Sendable (FrameTrace) -> Void)?
    private let codec = FrameCodec()

    private let eventHub = Broadcaster<GatewayEvent>()
    private let stateHub = Broadcaster<ConnectionState>()

    public private(set) var state: ConnectionState = .disconnected(nil)
    private var generation = 0
    private var socket: (any WebSocketConnection)?
    private var readerTask: Task<Void, Never>?
    private var livenessTask: Task<Void, Never>?
    private var pending = PendingRequests()
    private var challengeWaiter: CheckedContinuation<Result<ConnectChallenge, GatewayError>, Never>?
    private var earlyChallenge: ConnectChallenge?
    private var connectAttempt: Task<Result<GatewaySession, GatewayError>, Never>?
    private var lastInbound = ContinuousClock.now
    private var lastSeq: Int?
    private var pendingShutdown: ShutdownEvent?
    private var maxOutboundBytes = GatewayLimits.maxPreauthPayloadBytes

    public init(
        configuration: GatewayConnectionConfiguration,
        transport: any WebSocketTransport = WebSocketKitTransport(),
        identityStore: any DeviceIdentityStore,
        tokenStore: any DeviceTokenStore,
        logger: Logger = Logger(label: "openclaw.gateway"),
        traceFrame: (@Sendable (FrameTrace) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.transport = transport
        self.identityStore = identityStore
        self.tokenStore = tokenStore
        self.logger = logger
        self.traceFrame = traceFrame
    }

    // MARK: - Subscriptions

    /// Every event from now on, across reconnects, in arrival order.
    public nonisolated func events() -> AsyncStream<GatewayEvent> { eventHub.subscribe() }

    /// Every state change from now on.
    public nonisolated func stateChanges() -> AsyncStream<ConnectionState> { stateHub.subscribe() }

    public var session: GatewaySession? { state.session }

    // MARK: - Connect and disconnect

    /// Opens the socket and completes the handshake. Concurrent callers share one attempt; when already
    /// connected the current session is returned.
    @discardableResult
    public func connect() async throws(GatewayError) -> GatewaySession {
        if let session = state.session { return session }
        if let attempt = connectAttempt { return try await attempt.value.get() }
        let attempt = Task { await self.performConnect() }
        connectAttempt = attempt
        let result = await attempt.value
        connectAttempt = nil
        return try result.get()
    }

    /// Closes the socket (code 1000). Pending requests fail with ``GatewayError/connectionLost(_:)``.
    public func disconnect() async {
        await teardown(reason: .closedByClient, closeCode: GatewayCloseCode.normal)
    }

    private func performConnect() async -> Result<GatewaySession, GatewayError> {
        generation += 1
        let socketGeneration = generation
        setState(.connecting)
        lastSeq = nil
        pendingShutdown = nil
        earlyChallenge = nil
        maxOutboundBytes = GatewayLimits.maxPreauthPayloadBytes

        let identity: DeviceIdentity
        do {
            identity = try identityStore.loadOrCreate()
        } catch {
            return fail(.localStorage(error.description), generation: socketGeneration)
        }
        logger.debug("connecting", metadata: ["url": "\(configuration.url)", "deviceId": "\(identity.deviceId)"])

        switch await openSocket() {
        case .failure(let error): return fail(error, generation: socketGeneration)
        case .success(let opened):
            guard socketGeneration == generation else {
                Task { await opened.close(code: GatewayCloseCode.normal) }
                return .failure(.cancelled)
            }
            socket = opened
            lastInbound = .now
            readerTask = Task { [weak self] in
                for await event in opened.events {
                    await self?.receive(event, generation: socketGeneration)
                }
            }
        }

        let challenge: ConnectChallenge
        switch await waitForChallenge(generation: socketGeneration) {
        case .failure(let error): return await abortHandshake(error, generation: socketGeneration)
        case .success(let received): challenge = received
        }

        let params: ConnectParams
        do {
            params = try connectParams(identity: identity, challenge: challenge)
        } catch {
            return await abortHandshake(.localStorage(error.description), generation: socketGeneration)
        }
        let response = await send(
            method: "connect",
            params: params.json,
            timeout: configuration.connectTimeout,
            generation: socketGeneration
        )
        switch response {
        case .failure(let error):
            return await abortHandshake(error, generation: socketGeneration)
        case .success(let frame) where !frame.ok:
            let error = GatewayErrorClassifier.connectFailure(frame.error ?? ErrorShape(code: "UNKNOWN", message: ""))
            if case .authFailed(let failure) = error, failure.code == .authDeviceTokenMismatch {
                forgetDeviceToken(deviceId: identity.deviceId)
            }
            return await abortHandshake(error, generation: socketGeneration)
        case .success(let frame):
            return await completeHandshake(frame, identity: identity, generation: socketGeneration)
        }
    }

    private func completeHandshake(
        _ frame: ResponseFrame,
        identity: DeviceIdentity,
        generation socketGeneration: Int
    ) async -> Result<GatewaySession, GatewayError> {
        guard let hello = HelloOk(json: frame.payload) else {
            return await abortHandshake(
                .invalidResponse(method: "connect", reason: "no hello-ok payload"),
                generation: socketGeneration
            )
        }
        guard let version = hello.protocolVersion else {
            return await abortHandshake(.unsupportedProtocol(hello.protocolNumber), generation: socketGeneration)
        }
        if let auth = hello.auth, let token = auth.deviceToken {
            rememberDeviceToken(
                DeviceTokenRecord(token: token, role: auth.role, scopes: auth.scopes, issuedAtMs: auth.issuedAtMs),
                deviceId: identity.deviceId
            )
        }
        maxOutboundBytes = hello.policy.maxPayload
        let session = GatewaySession(
            hello: hello,
            protocolVersion: version,
            deviceId: identity.deviceId,
            scopes: configuration.scopes,
            generation: socketGeneration
        )
        lastInbound = .now
        startLivenessWatch(tickIntervalMs: hello.policy.tickIntervalMs, generation: socketGeneration)
        setState(.connected(session))
        eventHub.publish(.connected(session))
        logger.info(
            "connected",
            metadata: [
                "url": "\(configuration.url)", "protocol": "\(version.rawValue)",
                "server": "\(hello.server.version)",
            ]
        )
        return .success(session)
    }

    private func openSocket() async -> Result<any WebSocketConnection, GatewayError> {
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

    private func waitForChallenge(generation socketGeneration: Int) async -> Result<ConnectChallenge, GatewayError> {
        if let challenge = earlyChallenge {
            earlyChallenge = nil
            return .success(challenge)
        }
        let timeoutMs = configuration.challengeTimeout.milliseconds
        let timer = Task { [weak self] in
            try? await Task.sleep(for: self?.configuration.challengeTimeout ?? .seconds(6))
            guard !Task.isCancelled else { return }
            await self?.resolveChallenge(.failure(.challengeTimeout(afterMs: timeoutMs)), generation: socketGeneration)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            challengeWaiter = continuation
        }
    }

    private func resolveChallenge(_ result: Result<ConnectChallenge, GatewayError>, generation socketGeneration: Int) {
        guard socketGeneration == generation, let waiter = challengeWaiter else { return }
        challengeWaiter = nil
        waiter.resume(returning: result)
    }

    private func connectParams(
        identity: DeviceIdentity, challenge: ConnectChallenge
    ) throws(DeviceIdentityError)
        -> ConnectParams
    {
        let storedToken = try? tokenStore.load(tokenKey(deviceId: identity.deviceId))
        var auth = ConnectAuth()
        switch configuration.credential {
        case .token(let token): auth.token = token
        case .password(let password): auth.password = password
        // Without a shared secret, the paired device signs in with its own token (in `auth.token`, the
        // field every gateway accepts; it falls back to checking device tokens). With one, only the
        // secret is sent, as upstream clients do: a wrong token must be reported as wrong, not silently
        // papered over by a stored device token.
        case .none: auth.token = storedToken?.token
        }
        let proof = try identity.proof(
            for: challenge,
            client: configuration.client,
            role: configuration.role,
            scopes: configuration.scopes,
            auth: auth
        )
        return ConnectParams(
            minProtocol: configuration.offeredProtocols.lowerBound,
            maxProtocol: configuration.offeredProtocols.upperBound,
            client: configuration.client,
            role: configuration.role,
            scopes: configuration.scopes,
            caps: configuration.caps,
            device: proof,
            auth: auth.isEmpty ? nil : auth,
            locale: configuration.locale,
            userAgent: configuration.userAgent
        )
    }

    private func abortHandshake(
        _ error: GatewayError, generation socketGeneration: Int
    ) async
        -> Result<GatewaySession, GatewayError>
    {
        guard socketGeneration == generation else { return .failure(error) }
        let closing = socket
        invalidateSocket()
        pending.failAll(with: error)
        await closing?.close(code: GatewayCloseCode.normal)
        return fail(error, generation: socketGeneration)
    }

    private func fail(_ error: GatewayError, generation socketGeneration: Int) -> Result<GatewaySession, GatewayError> {
        if socketGeneration == generation || socket == nil {
            setState(.failed(error))
        }
        logger.notice("connect failed", metadata: ["url": "\(configuration.url)", "error": "\(error.message)"])
        return .failure(error)
    }

    // MARK: - Requests

    /// Sends a request and waits for its response payload (nil when the response has none).
    ///
    /// Fails with a typed error when the gateway refuses it, when it times out, when the connection ends
    /// before the answer, or at once when the frame would exceed the gateway's `policy.maxPayload`.
    public func request(
        _ method: String, params: JSONValue? = nil, timeout: Duration? = nil
    ) async throws(GatewayError)
        -> JSONValue?
    {
        guard let session = state.session else { throw .notConnected }
        let result = await send(
            method: method,
            params: params,
            timeout: timeout ?? configuration.defaultRequestTimeout,
            generation: session.generation
        )
        let frame = try result.get()
        guard frame.ok else {
            throw GatewayErrorClassifier.requestFailure(
                method: method,
                error: frame.error ?? ErrorShape(code: "UNKNOWN", message: "request failed")
            )
        }
        return frame.payload
    }

    private func send(
        method: String, params: JSONValue?, timeout: Duration, generation socketGeneration: Int
    ) async
        -> Result<ResponseFrame, GatewayError>
    {
        guard socketGeneration == generation, let socket else { return .failure(.notConnected) }
        let id = RequestID.make()
        let text = FrameCodec.text(RequestFrame(id: id, method: method, params: params))
        let size = text.utf8.count
        guard size <= maxOutboundBytes else { return .failure(.payloadTooLarge(bytes: size, limit: maxOutboundBytes)) }

        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.add(id: id, method: method, generation: socketGeneration, continuation: continuation)
                guard !Task.isCancelled else {
                    pending.resolve(id: id, with: .failure(.cancelled))
                    return
                }
                let timeoutMs = timeout.milliseconds
                pending.setTimeout(
                    id: id,
                    Task { [weak self] in
                        try? await Task.sleep(for: timeout)
                        guard !Task.isCancelled else { return }
                        await self?.resolveRequest(id: id, with: .failure(.timeout(method: method, afterMs: timeoutMs)))
                    }
                )
                trace(.outbound, text)
                Task { [weak self] in
                    do {
                        try await socket.send(text: text)
                    } catch {
                        await self?.resolveRequest(id: id, with: .failure(.connectionLost(.connectionLost)))
                    }
                }
            }
        } onCancel: {
            Task { [weak self] in await self?.resolveRequest(id: id, with: .failure(.cancelled)) }
        }
    }

    private func resolveRequest(id: String, with result: Result<ResponseFrame, GatewayError>) {
        pending.resolve(id: id, with: result)
    }

    // MARK: - Inbound

    private func receive(_ event: TransportEvent, generation socketGeneration: Int) {
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

    private func handle(decoded: Result<GatewayFrame, FrameDecodingError>) {
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

    private func handle(event: EventFrame) {
        if event.event == GatewayEventName.connectChallenge {
            guard let challenge = ConnectChallenge(json: event.payload) else {
                resolveChallenge(.failure(.challengeTimeout(afterMs: 0)), generation: generation)
                return
            }
            if challengeWaiter == nil, state == .connecting {
                earlyChallenge = challenge
            } else {
                resolveChallenge(.success(challenge), generation: generation)
            }
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

    private func handleRemoteClose(code: Int?) {
        let reason = DisconnectReason.from(closeCode: code, pendingShutdown: pendingShutdown)
        if state.isConnected {
            logger.info("disconnected", metadata: ["reason": "\(reason)"])
            invalidateSocket()
            pending.failAll(with: .connectionLost(reason))
            setState(.disconnected(reason))
            eventHub.publish(.disconnected(reason))
        } else {
            // Still handshaking: whoever waits learns why, and the connect attempt reports it.
            let error = GatewayErrorClassifier.handshakeClose(code: code, pendingShutdown: pendingShutdown)
            resolveChallenge(.failure(error), generation: generation)
            pending.failAll(with: error)
        }
    }

    // MARK: - Liveness

    private func startLivenessWatch(tickIntervalMs: Int, generation socketGeneration: Int) {
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

    private func isSilent(longerThan allowed: Duration, generation socketGeneration: Int) -> Bool {
        socketGeneration == generation && state.isConnected && ContinuousClock.now - lastInbound > allowed
    }

    // MARK: - Teardown

    private func teardown(reason: DisconnectReason, closeCode: Int, generation socketGeneration: Int? = nil) async {
        if let socketGeneration, socketGeneration != generation { return }
        let closing = socket
        let wasConnected = state.isConnected
        connectAttempt?.cancel()
        invalidateSocket()
        resolveChallengeUnconditionally(.failure(.connectionLost(reason)))
        pending.failAll(with: .connectionLost(reason))
        if wasConnected || state == .connecting {
            setState(.disconnected(reason))
        }
        if wasConnected { eventHub.publish(.disconnected(reason)) }
        await closing?.close(code: closeCode)
    }

    /// Forgets the current socket: bumps the generation so nothing from it is processed any more.
    private func invalidateSocket() {
        generation += 1
        socket = nil
        readerTask?.cancel()
        readerTask = nil
        livenessTask?.cancel()
        livenessTask = nil
    }

    private func resolveChallengeUnconditionally(_ result: Result<ConnectChallenge, GatewayError>) {
        guard let waiter = challengeWaiter else { return }
        challengeWaiter = nil
        waiter.resume(returning: result)
    }

    // MARK: - Helpers

    private func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        stateHub.publish(newState)
    }

    private func trace(_ direction: FrameTrace.Direction, _ text: String) {
        guard let traceFrame else { return }
        traceFrame(FrameTrace(direction: direction, text: FrameRedactor.redactedText(text)))
    }

    private func tokenKey(deviceId: String) -> DeviceTokenKey {
        DeviceTokenKey(gateway: configuration.url.description, deviceId: deviceId, role: configuration.role)
    }

    private func rememberDeviceToken(_ record: DeviceTokenRecord, deviceId: String) {
        do {
            try tokenStore.save(record, for: tokenKey(deviceId: deviceId))
        } catch {
            logger.warning("could not save the device token", metadata: ["error": "\(error.description)"])
        }
    }

    private func forgetDeviceToken(deviceId: String) {
        do {
            try tokenStore.remove(tokenKey(deviceId: deviceId))
        } catch {
            logger.warning("could not remove the stale device token", metadata: ["error": "\(error.description)"])
        }
    }
}
