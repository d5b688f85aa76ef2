import NIOCore
import Synchronization

/// The accepted connections still open, so that stopping the server can end them all: one that never
/// completed its upgrade (or its TLS handshake) is nobody else's to close, and would hold the accept
/// loop's task group open for ever.
final class ChildChannels: Sendable {
    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// Keeps `channel` until it closes; one accepted after ``closeAll()`` (the accept raced the stop) is
    /// closed at once.
    func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let tracked = state.withLock { state in
            guard !state.closed else { return false }
            state.open[key] = channel
            return true
        }
        guard tracked else {
            channel.close(mode: .all, promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = state.withLock { $0.open.removeValue(forKey: key) }
        }
    }

    func closeAll() {
        let channels = state.withLock { state in
            state.closed = true
            return Array(state.open.values)
        }
        for channel in channels { channel.close(mode: .all, promise: nil) }
    }
}
