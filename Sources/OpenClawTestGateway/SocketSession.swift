import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import OpenClawTestGatewayCore

/// Runs one accepted WebSocket: a reader feeding the hub and a writer draining the socket's queue.
enum SocketSession {
    /// How long a close frame waits for the client's answer before the TCP connection is closed.
    static let closeGrace: Duration = .seconds(2)

    static func serve(
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        handle: ConnectionHandle,
        hub: GatewayHub,
        maxMessageSize: Int
    ) async {
        await hub.opened(handle)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await write(handle: handle, outbound: outbound) }
            do {
                for try await message in inbound.messages(maxSize: maxMessageSize) {
                    switch message {
                    case .text(let text): await hub.received(Array(text.utf8), from: handle.id)
                    case .binary(let buffer): await hub.received(Array(buffer.readableBytesView), from: handle.id)
                    }
                }
            } catch {
                // The socket failed or sent an oversized message; the WebSocket layer closes it.
            }
            await hub.closed(handle.id)
            handle.finish()
            group.cancelAll()
        }
    }

    private static func write(handle: ConnectionHandle, outbound: WebSocketOutboundWriter) async {
        for await action in handle.actions {
            switch action {
            case .text(let text, let delayMs):
                if delayMs > 0 { try? await Task.sleep(for: .milliseconds(delayMs)) }
                do {
                    try await outbound.write(.text(text))
                } catch {
                    return
                }
            case .close(let code, let reason):
                try? await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason)
                try? await Task.sleep(for: closeGrace)
                if !Task.isCancelled { handle.dropNow() }
                return
            case .drop:
                handle.dropNow()
                return
            }
        }
    }
}
