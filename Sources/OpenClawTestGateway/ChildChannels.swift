import NIOCore
import Synchronization

/// The accepted connections still open, so that stopping the server can end them all: one that never
/// completed its upgrade (or its TLS handshake) is nobody else's to close, and would hold the accept
/// loop's task group open for ever.
final class ChildChannels: Sendable {
    private let open = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Keeps `channel` until it closes.
    func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        open.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [self] _ in
            _ = open.withLock { $0.removeValue(forKey: key) }
        }
    }

    func closeAll() {
        let channels = open.withLock { Array($0.values) }
        for channel in channels { channel.close(mode: .all, promise: nil) }
    }
}
