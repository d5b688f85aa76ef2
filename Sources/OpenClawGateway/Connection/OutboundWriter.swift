import NIOCore
import Synchronization

/// One socket's outbound frames, in the order they were queued.
///
/// Frames are handed to the socket's single write queue (the NIO channel's, FIFO) without waiting for
/// each write to finish; a frame that cannot be written fails its request. Callers queue their own
/// requests, from their own executors, so the hand-over (and the trace line that shows it) happens
/// under one lock: frames reach the socket in the order the trace shows them, whichever thread queued
/// them. A frame that takes a while to build (attachments) holds its place from the start
/// (``reserve()``): what is queued meanwhile waits behind it, as it did when the actor built it.
final class OutboundWriter: Sendable {
    /// A place in the order, taken before the frame is built.
    struct Ticket: Sendable, Equatable {
        fileprivate let number: Int
    }

    enum Frame: Sendable {
        case text(String)
        case utf8(ByteBuffer)
    }

    private struct Slot {
        let number: Int
        /// Nil until the frame is ready; `.some(nil)` when the place was given up.
        var ready: Ready??
    }

    private struct Ready {
        let frame: Frame
        let requestID: String
        let trace: @Sendable () -> Void
    }

    private struct State {
        var slots: [Slot] = []
        var nextNumber = 0
    }

    let socket: any WebSocketConnection
    /// Called with the request id of a frame the socket could not write.
    private let failed: @Sendable (String) -> Void
    /// Held while frames are traced and handed to the socket.
    private let state = Mutex(State())

    init(socket: any WebSocketConnection, failed: @escaping @Sendable (String) -> Void) {
        self.socket = socket
        self.failed = failed
    }

    /// Takes the next place in the order for a frame still to be built: frames queued after this wait
    /// until it is filled (``enqueue(_:requestID:ticket:trace:)``) or given up (``giveUp(_:)``).
    func reserve() -> Ticket {
        state.withLock { state in
            defer { state.nextNumber += 1 }
            state.slots.append(Slot(number: state.nextNumber, ready: nil))
            return Ticket(number: state.nextNumber)
        }
    }

    /// Gives up a reserved place: the frames behind it go.
    func giveUp(_ ticket: Ticket) {
        state.withLock { state in
            guard let index = state.slots.firstIndex(where: { $0.number == ticket.number }) else { return }
            state.slots[index].ready = .some(nil)
            drain(&state)
        }
    }

    /// Queues `frame` (in `ticket`'s place, or last), traced with `trace` as it is handed to the socket.
    func enqueue(
        _ frame: Frame, requestID: String, ticket: Ticket? = nil, trace: @escaping @Sendable () -> Void = {}
    ) {
        let ready = Ready(frame: frame, requestID: requestID, trace: trace)
        state.withLock { state in
            if let ticket, let index = state.slots.firstIndex(where: { $0.number == ticket.number }) {
                state.slots[index].ready = .some(ready)
            } else if state.slots.isEmpty {
                write(ready)
                return
            } else {
                state.slots.append(Slot(number: -1, ready: .some(ready)))
            }
            drain(&state)
        }
    }

    /// Writes the frames at the head that are ready, in order.
    private func drain(_ state: inout State) {
        while let first = state.slots.first, let ready = first.ready {
            state.slots.removeFirst()
            if let ready { write(ready) }
        }
    }

    private func write(_ ready: Ready) {
        ready.trace()
        let failed = self.failed
        let requestID = ready.requestID
        let completion: @Sendable (Bool) -> Void = { written in
            if !written { failed(requestID) }
        }
        switch ready.frame {
        case .text(let text): socket.write(text: text, completion: completion)
        case .utf8(let buffer): socket.write(utf8Frame: buffer, completion: completion)
        }
    }
}
