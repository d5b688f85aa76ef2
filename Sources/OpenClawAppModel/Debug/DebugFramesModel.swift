import Observation
import OpenClawGateway
import OpenClawProtocol
import Synchronization

/// The last frames on the wire, redacted, for the debug screen.
///
/// Connections report frames through ``sink`` from their own actor; the sink numbers them and hands
/// them to an `AsyncStream` that keeps the newest `capacity` if the main actor falls behind, so a
/// burst of deltas can neither block the connection nor grow memory (a gap in the numbers shows what
/// was dropped). The model keeps them in a ring buffer.
@MainActor
@Observable
public final class DebugFramesModel {
    /// Whether connections record frames at all (see ``AppDependencies/recordsFrames``).
    public let isEnabled: Bool
    /// Stop taking new frames, to read the ones shown.
    public var isPaused = false
    private var ring: RingBuffer<DebugFrame>

    /// Given to connections as their `traceFrame` hook; nil when recording is off, so the
    /// connection does not even redact.
    @ObservationIgnored public nonisolated let sink: (@Sendable (FrameTrace) -> Void)?
    @ObservationIgnored private nonisolated let input: AsyncStream<Captured>.Continuation

    struct Captured: Sendable {
        let number: Int
        let trace: FrameTrace
        let atMs: Int
    }

    public init(capacity: Int = 500, isEnabled: Bool = true) {
        self.isEnabled = isEnabled
        ring = RingBuffer(capacity: capacity)
        let (frames, input) = AsyncStream.makeStream(of: Captured.self, bufferingPolicy: .bufferingNewest(capacity))
        self.input = input
        if isEnabled {
            let counter = FrameCounter()
            sink = { trace in
                input.yield(Captured(number: counter.next(), trace: trace, atMs: Int(UnixTime.nowMs())))
            }
        } else {
            sink = nil
        }
        // Unstructured: lives as long as the model, and ends when `deinit` finishes the stream.
        Task { [weak self] in
            for await captured in frames {
                self?.record(captured)
            }
        }
    }

    deinit {
        input.finish()
    }

    /// Oldest first.
    public var frames: [DebugFrame] { ring.elements }

    public var capacity: Int { ring.capacity }

    public func clear() {
        ring.removeAll()
    }

    private func record(_ captured: Captured) {
        guard !isPaused else { return }
        ring.append(
            DebugFrame(
                id: captured.number, isInbound: captured.trace.direction == .inbound, text: captured.trace.text,
                recordedAtMs: captured.atMs))
    }
}

/// Numbers frames as the connection reports them, from any thread.
private final class FrameCounter: Sendable {
    private let count = Atomic<Int>(0)

    func next() -> Int {
        count.add(1, ordering: .relaxed).newValue
    }
}
