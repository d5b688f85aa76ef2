import Logging
import OpenClawProtocol

/// Ending a socket: what is failed, forgotten and published, whoever ended it.
extension GatewayConnection {
    func teardown(reason: DisconnectReason, closeCode: Int, generation socketGeneration: Int? = nil) async {
        if let socketGeneration, socketGeneration != generation { return }
        let closing = socket
        let wasConnected = state.isConnected
        connectAttempt?.cancel()
        resolveChallenge(.failure(.connectionLost(reason)), generation: generation)
        invalidateSocket()
        pending.failAll(with: .connectionLost(reason))
        if wasConnected {
            connectionEnded(reason)
        } else if state == .connecting || state.reconnectStatus != nil {
            setState(.disconnected(reason))
        }
        await closing?.close(code: closeCode)
    }

    /// An established connection is gone (its socket already forgotten): reconnect when armed and the
    /// end was not our own doing, else rest in `disconnected`; subscribers hear `disconnected` either way.
    func connectionEnded(_ reason: DisconnectReason) {
        logger.info("disconnected", metadata: ["reason": "\(reason)"])
        if reconnectArmed, reason != .closedByClient {
            scheduleReconnect(after: .disconnected(reason), hint: reason.retryHint)
        } else {
            setState(.disconnected(reason))
        }
        publish(.disconnected(reason), flow: .barrierAll)
    }

    /// Forgets the current socket: bumps the generation so nothing from it is processed any more.
    func invalidateSocket() {
        generation += 1
        socket = nil
        readerTask?.cancel()
        readerTask = nil
        writer = nil
        probeSentAt = nil
        earlyEvents = []
        releaseEarlyEventWaiters()
        livenessTask?.cancel()
        livenessTask = nil
    }
}
