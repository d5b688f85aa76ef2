import OpenClawProtocol

@testable import OpenClawTestGatewayCore

/// Peers for the feature rule tests: a `PeerSession` with the authority under test and no socket.
enum FeaturePeers {
    /// A socket that never carries anything: the rules under test read only the peer's authority.
    struct NoSocket: GatewaySocket {
        var isFromLoopback: Bool { true }
        func dropNow() {}
        func writeBurst(_ texts: [String], batchBytes: Int) async throws {}
    }

    static func peer(
        id: Int = 1, role: GatewayRole = .operator, scopes: Set<String> = [], caps: Set<String> = [],
        deviceId: String? = nil
    ) -> PeerSession {
        var peer = PeerSession(
            handle: ConnectionHandle(id: id, origin: nil, socket: NoSocket()), connId: "conn-\(id)", nonce: "nonce")
        peer.phase = .open
        peer.role = role
        peer.scopes = scopes
        peer.caps = caps
        peer.deviceId = deviceId
        return peer
    }
}
