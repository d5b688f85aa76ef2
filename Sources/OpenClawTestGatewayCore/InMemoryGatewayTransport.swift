import OpenClawGateway

/// Sockets that are pipes into a gateway's hub in this process: no port, no TCP, no networking
/// library. Each `connect` is one socket, which the hub sees as a loopback peer without an `Origin`.
struct InMemoryGatewayTransport: WebSocketTransport {
    let hub: GatewayHub
    let connectionNumbers: ConnectionNumbers
    let maxMessageSize: Int

    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        let (events, source) = TransportEvents.makeSource()
        let pipe = InMemoryPipe(source: source)
        let handle = ConnectionHandle(id: connectionNumbers.next(), origin: nil, socket: pipe)
        let client = InMemoryClientSocket(
            hub: hub, handle: handle, pipe: pipe, events: events, maxMessageSize: maxMessageSize)
        await hub.opened(handle)
        pipe.startWriter(handle: handle, hub: hub)
        return client
    }
}
