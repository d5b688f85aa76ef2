import OpenClawProtocol

/// One peer as the gateway sees it: its socket, handshake state, granted authority, frame counters.
/// (Not the client library's `ConnectionState`: this is the gateway's side of one socket.)
struct PeerSession: Sendable {
    enum Phase: Sendable, Equatable {
        case awaitingConnect
        case open
        /// A close or drop is queued: nothing more is read or written.
        case closing
    }

    let handle: ConnectionHandle
    let connId: String
    let nonce: String
    var phase: Phase = .awaitingConnect
    var role: GatewayRole = .operator
    var scopes: Set<String> = []
    var caps: Set<String> = []
    /// Called `sessions.subscribe`: receives `sessions.changed` until it closes.
    var sessionsSubscribed = false
    /// Sessions (canonical keys) subscribed with `sessions.messages.subscribe {includeApprovals: true}`:
    /// their `session.approval` events come here.
    var approvalAudience: Set<String> = []
    /// `client.displayName`, else `client.id`: how `exec.approval.resolved` names the approver.
    var clientName: String?
    var deviceId: String?
    var authMethod: AuthMethod = .none
    var presenceKey: String?
    /// Next frame `seq` for a broadcast event on this socket.
    var nextSeq = 1
    var broadcastEvents = 0
    var seqSkipped = false

    var id: Int { handle.id }
    var isOpen: Bool { phase == .open }
}
