/// One text frame crossing a test gateway's socket, as a test's `TestGatewayConfiguration.frameTap`
/// sees it: what a client sent, or what the gateway queued for it.
///
/// Tests use the tap to validate every frame against the protocol schema. Frames a test made wrong on
/// purpose say so (`origin`), so a validator exempts them by name rather than by guessing.
public struct TappedFrame: Sendable {
    public enum Direction: Sendable {
        /// A frame a client sent to the gateway.
        case received
        /// A frame the gateway queued for a client.
        case sent
    }

    public enum Origin: Sendable, Equatable {
        /// The gateway's own frame, exactly as its protocol version shapes it.
        case gateway
        /// A frame a `GatewayQuirks` entry changed on purpose (an old or broken gateway's shape).
        case alteredByQuirk
        /// Text a test injected with `TestGateway.sendRaw` (hostile or malformed on purpose).
        case injected
    }

    public let direction: Direction
    public let origin: Origin
    /// The connection's number on this gateway (one per accepted socket).
    public let connection: Int
    /// The frame's text as it crosses the wire (received binary frames are decoded as UTF-8).
    public let text: String
}

extension GatewayHub {
    /// Hands a frame to the configuration's `frameTap`, if a test installed one. The origin and the
    /// text are worked out only then: without a tap (the demo, the benchmarks) every frame costs nothing
    /// more.
    func tap(
        _ direction: TappedFrame.Direction, _ origin: @autoclosure () -> TappedFrame.Origin,
        _ text: @autoclosure () -> String, connection id: Int
    ) {
        guard let frameTap = configuration.frameTap else { return }
        frameTap(TappedFrame(direction: direction, origin: origin(), connection: id, text: text()))
    }

    /// Queues an outbound text frame on `handle`, tapped first.
    func enqueue(
        _ text: String, origin: @autoclosure () -> TappedFrame.Origin, on handle: ConnectionHandle, delayMs: Int
    ) {
        tap(.sent, origin(), text, connection: handle.id)
        handle.enqueue(.text(text, delayMs: delayMs))
    }
}
