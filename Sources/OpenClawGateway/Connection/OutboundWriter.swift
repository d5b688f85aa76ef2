/// One socket's outbound frames, written by a single task in the order they were queued.
///
/// Each frame used to be sent from its own task, and tasks start in no particular order: two requests
/// made one after the other could reach the gateway the other way round. Frames now go through one
/// queue; a frame that cannot be written fails its request.
final class OutboundWriter: Sendable {
    private struct Item {
        let text: String
        let requestID: String
    }

    private let continuation: AsyncStream<Item>.Continuation
    private let task: Task<Void, Never>

    /// - Parameter failed: called with the request id of a frame the socket refused.
    init(socket: any WebSocketConnection, failed: @escaping @Sendable (String) async -> Void) {
        let (items, continuation) = AsyncStream.makeStream(of: Item.self)
        self.continuation = continuation
        task = Task {
            for await item in items {
                do {
                    try await socket.send(text: item.text)
                } catch {
                    await failed(item.requestID)
                }
            }
        }
    }

    func enqueue(_ text: String, requestID: String) {
        continuation.yield(Item(text: text, requestID: requestID))
    }

    /// The socket is being let go: frames not yet written are dropped (their requests fail with the
    /// socket's end).
    func finish() {
        continuation.finish()
        task.cancel()
    }
}
