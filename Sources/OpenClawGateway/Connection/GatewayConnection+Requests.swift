import NIOCore
import OpenClawProtocol

/// Requests: one id each, one resolution each (response, timeout, cancellation or the socket's end).
extension GatewayConnection {
    /// Sends a request and waits for its response payload (nil when the response has none).
    ///
    /// Fails with a typed error when the gateway refuses it, when it times out, when the connection ends
    /// before the answer, or at once when the frame would exceed the gateway's `policy.maxPayload`.
    /// Within the package only: callers name a method by its type (``call(_:timeout:)``), so a method's
    /// name, params and answer are written once.
    ///
    /// Waits for no turn of the connection's actor: the frame is encoded on the caller's executor and
    /// handed to the socket from Swift's global executor (where `withTaskCancellationHandler` runs its
    /// operation), and the response is handed back from where the socket reads it (see `ResponseShortcut`).
    nonisolated(nonsending) package func request(
        _ method: String, params: JSONValue? = nil, timeout: Duration? = nil
    ) async throws(GatewayError)
        -> JSONValue?
    {
        guard let route = pending.route else { throw .notConnected }
        let result = await send(
            method: method, params: params, timeout: timeout ?? configuration.defaultRequestTimeout, on: route)
        let frame = try result.get()
        guard frame.ok else {
            throw GatewayErrorClassifier.requestFailure(
                method: method,
                error: frame.error ?? ErrorShape(code: "UNKNOWN", message: "request failed")
            )
        }
        return frame.payload
    }

    nonisolated(nonsending) func send(
        method: String, params: JSONValue?, timeout: Duration, on route: RequestRoute
    ) async
        -> Result<ResponseFrame, GatewayError>
    {
        let id = RequestID.make()
        let text = FrameCodec.text(RequestFrame(id: id, method: method, params: params))
        let size = text.utf8.count
        guard size <= route.maxOutboundBytes else {
            return .failure(.payloadTooLarge(bytes: size, limit: route.maxOutboundBytes))
        }
        return await dispatch(id: id, method: method, timeout: timeout, generation: route.generation) {
            route.writer.enqueue(.text(text), requestID: id) { self.trace(.outbound, text) }
        }
    }

    /// Sends a request whose frame is too large to build as a `JSONValue` (a `chat.send` with
    /// attachments): its exact size is checked against `policy.maxPayload` first, then it is written
    /// once, into the buffer the socket sends. Traces show the request without the attachments' bytes.
    nonisolated(nonsending) public func request(
        _ request: ChatSendRequest, timeout: Duration? = nil
    ) async throws(GatewayError) -> JSONValue? {
        guard let route = pending.route else { throw .notConnected }
        let writer = route.writer
        // Its place in the order from now: what is sent while the frame is built waits behind it.
        let ticket = writer.reserve()
        var placeTaken = false
        defer { if !placeTaken { writer.giveUp(ticket) } }
        let maxOutboundBytes = route.maxOutboundBytes
        let id = RequestID.make()
        let size = request.frameByteCount(id: id)
        guard size <= maxOutboundBytes else {
            throw .attachment(.frameTooLarge(bytes: size, limit: maxOutboundBytes))
        }
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        var failure: AttachmentError?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { raw in
            let frame = UnsafeMutableRawBufferPointer(rebasing: raw[0..<size])
            do throws(AttachmentError) { try request.writeFrame(id: id, into: frame) } catch { failure = error }
            return size
        }
        if let failure { throw .attachment(failure) }
        let method = request.method
        let summary = FrameCodec.text(RequestFrame(id: id, method: method, params: request.summary))
        // Handed over, not kept: the transport owns the frame from here (it sends a large one in
        // fragments, and frees it when the last has left).
        var frameToSend: ByteBuffer? = buffer
        buffer = ByteBuffer()
        let result = await dispatch(
            id: id, method: method, timeout: timeout ?? configuration.defaultRequestTimeout,
            generation: route.generation
        ) {
            if let frame = frameToSend.take() {
                placeTaken = true
                writer.enqueue(.utf8(frame), requestID: id, ticket: ticket) { self.trace(.outbound, summary) }
            }
        }
        let frame = try result.get()
        guard frame.ok else {
            throw GatewayErrorClassifier.requestFailure(
                method: method, error: frame.error ?? ErrorShape(code: "UNKNOWN", message: "request failed"))
        }
        return frame.payload
    }

    /// Registers a pending request on socket `generation` (its timeout armed), then runs `write` to put
    /// its frame on the socket; fails at once when that socket is no longer open for requests.
    private nonisolated(nonsending) func dispatch(
        id: String, method: String, timeout: Duration, generation socketGeneration: Int, write: () -> Void
    ) async -> Result<ResponseFrame, GatewayError> {
        let pending = self.pending
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                do {
                    try pending.add(
                        id: id, method: method, generation: socketGeneration, timeout: timeout,
                        continuation: continuation)
                } catch {
                    continuation.resume(returning: .failure(.notConnected))
                    return
                }
                // A reader held at a subscriber's mark may now read on, up to the request headroom.
                eventHub.requestStarted()
                guard !Task.isCancelled else {
                    pending.resolve(id: id, with: .failure(.cancelled))
                    return
                }
                write()
            }
        } onCancel: {
            pending.resolve(id: id, with: .failure(.cancelled))
        }
    }

    var hasPendingRequests: Bool { pending.count > 0 }
}
