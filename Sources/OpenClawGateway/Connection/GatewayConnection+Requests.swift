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
    package func request(
        _ method: String, params: JSONValue? = nil, timeout: Duration? = nil
    ) async throws(GatewayError)
        -> JSONValue?
    {
        guard let session = state.session else { throw .notConnected }
        let result = await send(
            method: method,
            params: params,
            timeout: timeout ?? configuration.defaultRequestTimeout,
            generation: session.generation
        )
        let frame = try result.get()
        guard frame.ok else {
            throw GatewayErrorClassifier.requestFailure(
                method: method,
                error: frame.error ?? ErrorShape(code: "UNKNOWN", message: "request failed")
            )
        }
        return frame.payload
    }

    func send(
        method: String, params: JSONValue?, timeout: Duration, generation socketGeneration: Int
    ) async
        -> Result<ResponseFrame, GatewayError>
    {
        guard let live, live.id.rawValue == socketGeneration else { return .failure(.notConnected) }
        let writer = live.writer
        let id = RequestID.make()
        let text = FrameCodec.text(RequestFrame(id: id, method: method, params: params))
        let size = text.utf8.count
        let maxOutboundBytes = live.maxOutboundBytes
        guard size <= maxOutboundBytes else { return .failure(.payloadTooLarge(bytes: size, limit: maxOutboundBytes)) }
        return await dispatch(id: id, method: method, timeout: timeout, generation: socketGeneration) {
            trace(.outbound, text)
            writer.enqueue(text, requestID: id)
        }
    }

    /// Sends a request whose frame is too large to build as a `JSONValue` (a `chat.send` with
    /// attachments): its exact size is checked against `policy.maxPayload` first, then it is written
    /// once, into the buffer the socket sends. Traces show the request without the attachments' bytes.
    public func request(_ request: ChatSendRequest, timeout: Duration? = nil) async throws(GatewayError) -> JSONValue? {
        guard let session = state.session else { throw .notConnected }
        guard let live, live.id.rawValue == session.generation else { throw .notConnected }
        let writer = live.writer
        let maxOutboundBytes = live.maxOutboundBytes
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
            generation: session.generation
        ) {
            trace(.outbound, summary)
            if let frame = frameToSend.take() { writer.enqueue(utf8Frame: frame, requestID: id) }
        }
        let frame = try result.get()
        guard frame.ok else {
            throw GatewayErrorClassifier.requestFailure(
                method: method, error: frame.error ?? ErrorShape(code: "UNKNOWN", message: "request failed"))
        }
        return frame.payload
    }

    /// Registers a pending request, arms its timeout, and runs `write` to put its frame on the socket.
    private func dispatch(
        id: String, method: String, timeout: Duration, generation socketGeneration: Int, write: () -> Void
    ) async -> Result<ResponseFrame, GatewayError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.add(
                    id: id, method: method, generation: socketGeneration, timeout: timeout, continuation: continuation)
                // A reader held at a subscriber's mark may now read on, up to the request headroom.
                eventHub.requestStarted()
                guard !Task.isCancelled else {
                    pending.resolve(id: id, with: .failure(.cancelled))
                    return
                }
                if let deadline = pending.deadline(of: id) { armRequestTimer(for: deadline) }
                write()
            }
        } onCancel: {
            Task { [weak self] in await self?.resolveRequest(id: id, with: .failure(.cancelled)) }
        }
    }

    var hasPendingRequests: Bool { pending.count > 0 }

    func resolveRequest(id: String, with result: Result<ResponseFrame, GatewayError>) {
        pending.resolve(id: id, with: result)
    }

    /// Makes the one request timer fire by `deadline`: a new timer only when none is set or this
    /// deadline comes first (requests made one after another with the same timeout create none).
    func armRequestTimer(for deadline: ContinuousClock.Instant) {
        if let armed = requestTimerDeadline, armed <= deadline { return }
        requestTimer?.cancel()
        requestTimerDeadline = deadline
        requestTimer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.requestTimerFired()
        }
    }

    /// Times out what has expired and sets the timer for the next deadline, if any.
    private func requestTimerFired() {
        requestTimer = nil
        requestTimerDeadline = nil
        pending.expire(at: .now)
        if let next = pending.earliestDeadline { armRequestTimer(for: next) }
    }
}
