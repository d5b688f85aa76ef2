import Logging
import OpenClawProtocol

/// The steps of one handshake attempt: the socket, the challenge, and how an attempt ends.
extension GatewayConnection {
    func openSocket() async -> Result<any WebSocketConnection, GatewayError> {
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

    func waitForChallenge(generation socketGeneration: Int) async -> Result<ConnectChallenge, GatewayError> {
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

    func resolveChallenge(_ result: Result<ConnectChallenge, GatewayError>, generation socketGeneration: Int) {
        guard socketGeneration == generation, let waiter = challengeWaiter else { return }
        challengeWaiter = nil
        waiter.resume(returning: result)
    }

    func abortHandshake(
        _ error: GatewayError, generation socketGeneration: Int
    ) async
        -> Result<GatewaySession, GatewayError>
    {
        guard socketGeneration == generation else { return .failure(error) }
        let closing = socket
        let failure = fail(error, generation: socketGeneration)
        invalidateSocket()
        pending.failAll(with: error)
        await closing?.close(code: GatewayCloseCode.normal)
        return failure
    }

    /// Closes a refused handshake's socket without reporting a failure: another attempt follows.
    func dropHandshakeSocket(generation socketGeneration: Int) async {
        guard socketGeneration == generation else { return }
        let closing = socket
        invalidateSocket()
        pending.failAll(with: .cancelled)
        await closing?.close(code: GatewayCloseCode.normal)
    }

    func fail(_ error: GatewayError, generation socketGeneration: Int) -> Result<GatewaySession, GatewayError> {
        // A disconnect() during the attempt has already moved on (new generation): leave its state be.
        if socketGeneration == generation {
            if case .authFailed(let failure) = error, !attemptUsesStoredDeviceToken,
                mayRetryWithDeviceToken(after: failure)
            {
                // The retry with the saved device token follows at once: stay `connecting`, so nobody
                // sees a refusal flash by (see `connectRetryingWithDeviceToken`).
            } else if reconnectArmed, error.isRetryable {
                scheduleReconnect(after: .attemptFailed(error), hint: error.retryHint)
            } else {
                // Not retryable (or never connected): stays until the person acts; the loop is paused.
                setState(.failed(error))
            }
        }
        logger.notice("connect failed", metadata: ["url": "\(configuration.url)", "error": "\(error.message)"])
        return .failure(error)
    }
}
