import NIOCore
import NIOWebSocket
import OpenClawTestGatewayCore

/// Runs one accepted WebSocket: a reader feeding the hub and a writer draining the socket's queue.
enum SocketSession {
    static func serve(
        _ socket: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, handle: ConnectionHandle, hub: GatewayHub
    ) async {
        await hub.opened(handle)
        try? await socket.executeThenClose { inbound, outbound in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await write(handle: handle, outbound: outbound) }
                do {
                    for try await frame in inbound {
                        await hub.received(Array(frame.unmaskedData.readableBytesView), from: handle.id)
                    }
                } catch {
                    // The socket failed; the channel is closed on the way out.
                }
                await hub.closed(handle.id)
                handle.finish()
                group.cancelAll()
            }
        }
    }

    private static func write(
        handle: ConnectionHandle, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    )
        async
    {
        for await action in handle.actions {
            switch action {
            case .text(let text, let delayMs):
                if delayMs > 0 { try? await Task.sleep(for: .milliseconds(delayMs)) }
                do {
                    try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
                } catch {
                    return
                }
            case .close(let code, let reason):
                var data = ByteBuffer()
                data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
                if let reason { data.writeString(reason) }
                try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
                try? await Task.sleep(for: .nanoseconds(WebSocketControlHandler.closeGrace.nanoseconds))
                if !Task.isCancelled { handle.dropNow() }
                return
            case .drop:
                handle.dropNow()
                return
            }
        }
    }
}
