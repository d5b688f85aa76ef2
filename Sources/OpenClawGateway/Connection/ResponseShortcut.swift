import OpenClawProtocol

/// The first look at a message, on the socket's event loop (see `InboundQueue.readEarly(_:)`): it is
/// decoded there, and a response to a request pending on this socket is handed to its caller at once,
/// without waiting for the connection actor's turn.
///
/// Only a message with nothing ahead of it is looked at, so every event that came before a response
/// has been published by the time its caller sees it, as when the actor resolved it. Everything else
/// (events, the answer to `connect`, an unknown response) is queued for the actor with what it
/// decoded to.
struct ResponseShortcut: Sendable {
    let pending: PendingRequests
    /// The socket whose messages these are: a response resolves only a request sent on it.
    let generation: Int
    let codec: FrameCodec
    let traceFrame: (@Sendable (FrameTrace) -> Void)?

    func read(_ event: TransportEvent) -> InboundQueue.EarlyReading {
        let decoded: Result<GatewayFrame, FrameDecodingError>
        switch event {
        case .text(let text):
            decoded = Result { () throws(FrameDecodingError) in try codec.decode(text) }
        case .binary(let bytes):
            decoded = Result { () throws(FrameDecodingError) in try codec.decode(bytes) }
        case .closed, .tooLarge:
            return .untouched
        }
        guard case .success(.response(let response)) = decoded,
            pending.resolve(response, onSocket: generation, traced: { trace(event) })
        else { return .decoded(decoded) }
        return .handled
    }

    /// Traces the message as the actor does when it handles one.
    private func trace(_ event: TransportEvent) {
        guard let traceFrame else { return }
        let text: String
        switch event {
        case .text(let value): text = value
        case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
        case .closed, .tooLarge: return
        }
        traceFrame(FrameTrace(direction: .inbound, text: FrameRedactor.redactedText(text)))
    }
}
