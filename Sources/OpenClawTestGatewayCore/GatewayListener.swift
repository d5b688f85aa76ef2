import Synchronization

/// What serves a ``TestGateway``'s sockets: the SwiftNIO server on a port (`OpenClawTestGateway`),
/// or nothing at all for a gateway in memory, whose sockets come from its in-memory transport.
package protocol GatewayListener: Sendable {
    /// Whether clients reach it over the network (a URL with a port) rather than in memory.
    var isNetworked: Bool { get }
    /// Serves until the server ends or the calling task is cancelled.
    func serve() async -> Result<Void, any Error>
    /// Stops accepting and waits until the server has ended.
    func stop() async
    /// Stops without waiting (the gateway was released).
    func cancel()
}

/// Numbers the sockets of one gateway, whichever way they arrive.
package final class ConnectionNumbers: Sendable {
    private let last = Atomic<Int>(0)

    package init() {}

    package func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}

/// The listener of a gateway in memory: nothing to accept; serving is waiting to be cancelled.
struct InMemoryListener: GatewayListener {
    var isNetworked: Bool { false }

    func serve() async -> Result<Void, any Error> {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        return .success(())
    }

    func stop() async {}

    func cancel() {}
}
