import OpenClawGateway
import OpenClawProtocol

/// What every feature shares for output: responses, targeted and broadcast events (with the frame
/// `seq` and the output faults), closes and drops.
extension GatewayHub {
    /// Queues a frame (a response or targeted event) with no frame `seq`.
    func send(_ frame: JSONValue, to id: Int, delayMs: Int = 0) {
        guard let connection = peers[id], connection.phase != .closing else { return }
        let outbound = configuration.quirks.outbound(frame)
        let text = JSONSerializer.string(outbound)
        enqueue(text, origin: outbound == frame ? .gateway : .alteredByQuirk, on: connection.handle, delayMs: delayMs)
    }

    func respond(to id: Int, requestId: String, payload: JSONValue) {
        send(ResponseFrame(id: requestId, ok: true, payload: payload).json, to: id)
    }

    func respond(to id: Int, requestId: String, error: ErrorShape, payload: JSONValue? = nil) {
        send(ResponseFrame(id: requestId, ok: false, payload: payload, error: error).json, to: id)
    }

    /// A targeted event: no frame `seq`.
    func sendTargetedEvent(_ event: String, payload: JSONValue, to id: Int) {
        send(EventFrame(event: event, payload: payload).json, to: id, delayMs: faults.eventDelayMs)
    }

    /// A broadcast event to every open socket that `include` accepts, with the frame `seq` of
    /// ``TestGatewayConfiguration/frameSeq``: each socket's own counter, or the process-wide one, taken
    /// once before the sockets are filtered. Returns the sockets it was queued on.
    @discardableResult
    func broadcast(
        _ event: String,
        payload: JSONValue,
        withStateVersion: Bool = false,
        include: (PeerSession) -> Bool = { _ in true }
    ) -> [Int] {
        var reached: [Int] = []
        let global = configuration.frameSeq == .global
        if global { globalSeq += 1 }
        for id in peers.keys.sorted() {
            guard var connection = peers[id], connection.isOpen, include(connection) else { continue }
            if global {
                connection.broadcastEvents += 1
                peers[id] = connection
                let stateVersion = withStateVersion ? currentStateVersion : nil
                let frame = EventFrame(event: event, payload: payload, seq: globalSeq, stateVersion: stateVersion)
                let text = JSONSerializer.string(frame.json)
                enqueue(text, origin: .gateway, on: connection.handle, delayMs: faults.eventDelayMs)
                reached.append(id)
                continue
            }
            if let skipAfter = faults.skipSeqAfterEvents, !connection.seqSkipped,
                connection.broadcastEvents >= skipAfter
            {
                connection.nextSeq += 1
                connection.seqSkipped = true
            }
            let seq = connection.nextSeq
            connection.nextSeq += 1
            connection.broadcastEvents += 1
            peers[id] = connection
            let stateVersion = withStateVersion ? currentStateVersion : nil
            let frame = EventFrame(event: event, payload: payload, seq: seq, stateVersion: stateVersion)
            let outbound = configuration.quirks.outbound(frame.json)
            let text = JSONSerializer.string(outbound)
            enqueue(
                text, origin: outbound == frame.json ? .gateway : .alteredByQuirk, on: connection.handle,
                delayMs: faults.eventDelayMs)
            reached.append(id)
        }
        return reached
    }

    /// Queues a close frame; the socket takes no more input or output.
    func close(_ id: Int, code: Int, reason: String?) {
        guard var connection = peers[id], connection.phase != .closing else { return }
        connection.phase = .closing
        peers[id] = connection
        connection.handle.enqueue(.close(code: code, reason: reason.map(Self.closeReason)))
    }

    /// Queues an abrupt TCP close after what is already queued.
    func drop(_ id: Int) {
        guard var connection = peers[id], connection.phase != .closing else { return }
        connection.phase = .closing
        peers[id] = connection
        connection.handle.enqueue(.drop)
    }

    /// Close reasons are cut to 123 bytes by the WebSocket protocol; the gateway cuts at 120.
    static func closeReason(_ text: String) -> String {
        var bytes = Array(text.utf8.prefix(120))
        while String(validating: bytes, as: UTF8.self) == nil, !bytes.isEmpty { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    var currentStateVersion: StateVersion { connect.stateVersion }
}
