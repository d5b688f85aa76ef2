import OpenClawProtocol

/// The open socket of the attempt or connection under way, with what belongs to it alone: made new
/// for every socket, so nothing of an earlier one (a sequence number, a payload limit) is carried over.
struct LiveSocket {
    let id: SocketID
    let socket: any WebSocketConnection
    /// This device's identity, loaded for the attempt: it signs the challenge and names the tokens.
    let identity: DeviceIdentity
    let writer: OutboundWriter
    /// When a frame was last handled (see `GatewayConnection.lastHeard`).
    var lastInbound = ContinuousClock.now
    var lastSeq: Int?
    /// The largest frame we may send: the pre-handshake limit until `hello-ok` says the gateway's.
    var maxOutboundBytes = GatewayLimits.maxPreauthPayloadBytes
}

/// What is left to do on sockets after the actor's turn: closes and pings, which wait for the network.
struct SocketWork: Sendable {
    var closes: [(socket: any WebSocketConnection, code: Int)] = []
    var pings: [any WebSocketConnection] = []

    var isEmpty: Bool { closes.isEmpty && pings.isEmpty }

    func run() async {
        for close in closes { await close.socket.close(code: close.code) }
        for socket in pings { await socket.sendPing() }
    }
}
