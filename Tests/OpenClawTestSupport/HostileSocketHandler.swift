import Foundation
import NIOCore
import NIOWebSocket
import OpenClawProtocol

/// One socket of a ``HostileGateway``: the handshake, a few answers, and the script's frames, written
/// while the socket is writable (so a client that stops reading stops the flood, too).
final class HostileSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum Output {
        case frame(WebSocketFrame)
        case close(code: Int, reason: String)
        case drop
        case scriptEnd
    }

    private struct Step {
        var action: HostileAction?
        var runId: String
        var sessionKey: String
    }

    private let script: HostileScript
    private let record: @Sendable ((inout HostileGateway.Observed) -> Void) -> Void
    private var steps: [Step] = []
    private var stepIndex = 0
    private var progress = 0
    private var replySoFar = ""
    private var eventSeq = 0
    private var ended = false

    init(script: HostileScript, record: @escaping @Sendable ((inout HostileGateway.Observed) -> Void) -> Void) {
        self.script = script
        self.record = record
    }

    func handlerAdded(context: ChannelHandlerContext) {
        record { $0.connections += 1 }
        let challenge: JSONValue = [
            "type": "event", "event": "connect.challenge",
            "payload": ["nonce": "hostile-nonce", "ts": .int(Int(Date.nowMs))],
        ]
        write(text: JSONSerializer.string(challenge), context: context)
        context.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        ended = true
        record { $0.socketsClosed += 1 }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var payload = frame.unmaskedData
            let text = payload.readString(length: payload.readableBytes) ?? ""
            if let request = try? JSONParser().parse(text), request["type"] == "req" {
                answer(request, context: context)
            }
        case .ping:
            record { $0.pingsReceived += 1 }
            guard script.answersPings else { return }
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            record { $0.pongsReceived += 1 }
        case .connectionClose:
            var payload = frame.unmaskedData
            if let code = payload.readInteger(as: UInt16.self) { record { $0.clientCloseCodes.append(Int(code)) } }
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        pump(context: context)
        context.fireChannelWritabilityChanged()
    }

    // MARK: Requests

    private func answer(_ request: JSONValue, context: ChannelHandlerContext) {
        guard let id = request["id"]?.stringValue, let method = request["method"]?.stringValue else { return }
        let params = request["params"]
        switch method {
        case "connect":
            respond(id: id, payload: hello(), context: context)
            record { $0.handshakes += 1 }
            enqueue(script.afterHello, runId: HostileScript.runId, sessionKey: HostileScript.sessionKey)
        case "chat.send":
            record { $0.requests.append(method) }
            let runId = params?["idempotencyKey"]?.stringValue ?? HostileScript.runId
            let sessionKey = params?["sessionKey"]?.stringValue ?? HostileScript.sessionKey
            let ack: JSONValue = ["runId": .string(runId), "status": "started"]
            switch script.ackPlacement {
            case .ownWrite:
                respond(id: id, payload: ack, context: context)
                enqueue(script.onChatSend, runId: runId, sessionKey: sessionKey)
            case .withFirstEvents:
                respond(id: id, payload: ack, context: context)
                enqueue(script.onChatSend, runId: runId, sessionKey: sessionKey)
                pump(context: context)
                return
            case .afterEvents:
                enqueue(script.onChatSend, runId: runId, sessionKey: sessionKey)
                pump(context: context, flushing: false)
                respond(id: id, payload: ack, context: context)
                context.flush()
                return
            }
        case "chat.history":
            record { $0.requests.append(method) }
            let sessionKey = params?["sessionKey"]?.stringValue ?? HostileScript.sessionKey
            respond(id: id, payload: ["sessionKey": .string(sessionKey), "messages": []], context: context)
        default:
            record { $0.requests.append(method) }
            respond(id: id, payload: ["ok": true], context: context)
        }
        context.flush()
        pump(context: context)
    }

    private func respond(id: String, payload: JSONValue, context: ChannelHandlerContext) {
        let response: JSONValue = ["type": "res", "id": .string(id), "ok": true, "payload": payload]
        write(text: JSONSerializer.string(response), context: context)
    }

    private func hello() -> JSONValue {
        [
            "type": "hello-ok", "protocol": .int(script.protocolNumber),
            "server": ["version": "hostile", "connId": "hostile-1"],
            "features": ["methods": [], "events": []],
            "snapshot": [
                "presence": [], "health": [:], "stateVersion": ["presence": 0, "health": 0], "uptimeMs": 0,
                "sessionDefaults": [
                    "defaultAgentId": "main", "mainKey": "main", "mainSessionKey": .string(HostileScript.sessionKey),
                ],
            ],
            "policy": script.policy,
            "auth": ["role": "operator", "scopes": ["operator.read", "operator.write"]],
        ]
    }

    // MARK: The script

    private func enqueue(_ actions: [HostileAction], runId: String, sessionKey: String) {
        guard !actions.isEmpty else { return }
        for action in actions { steps.append(Step(action: action, runId: runId, sessionKey: sessionKey)) }
        steps.append(Step(action: nil, runId: runId, sessionKey: sessionKey))
    }

    /// Writes scripted frames while the socket takes them; resumes when it becomes writable again.
    /// Without `flushing`, what it writes goes out with the caller's next flush (one write).
    private func pump(context: ChannelHandlerContext, flushing: Bool = true) {
        var written = 0
        while !ended, context.channel.isWritable, let output = nextOutput(allocator: context.channel.allocator) {
            switch output {
            case .frame(let frame):
                context.write(wrapOutboundOut(frame), promise: nil)
                written += 1
                if flushing, written % 64 == 0 { context.flush() }
            case .close(let code, let reason):
                var buffer = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
                buffer.writeInteger(UInt16(code))
                buffer.writeString(reason)
                ended = true
                let channel = context.channel
                context.writeAndFlush(
                    wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: buffer))
                ).whenComplete { _ in channel.close(promise: nil) }
            case .drop:
                ended = true
                context.close(promise: nil)
            case .scriptEnd:
                record { $0.scriptsCompleted += 1 }
            }
        }
        if written > 0 {
            let count = written
            record { $0.framesWritten += count }
        }
        if flushing { context.flush() }
    }

    private func nextOutput(allocator: ByteBufferAllocator) -> Output? {
        while stepIndex < steps.count {
            let step = steps[stepIndex]
            guard let action = step.action else {
                advance()
                return .scriptEnd
            }
            if let output = output(of: action, step: step, allocator: allocator) {
                progress += 1
                return output
            }
            advance()
        }
        return nil
    }

    private func advance() {
        stepIndex += 1
        progress = 0
        replySoFar = ""
    }

    /// Output number `progress` of `action`, nil when the action is done.
    private func output(of action: HostileAction, step: Step, allocator: ByteBufferAllocator) -> Output? {
        switch action {
        case .text(let text):
            return progress == 0 ? .frame(textFrame(text, allocator: allocator)) : nil
        case .fragmentedText(let totalBytes, let fragmentBytes):
            let size = max(1, fragmentBytes)
            let sent = progress * size
            guard sent < totalBytes else { return nil }
            let length = min(size, totalBytes - sent)
            var buffer = allocator.buffer(capacity: length)
            buffer.writeRepeatingByte(UInt8(ascii: "x"), count: length)
            let opcode: WebSocketOpcode = progress == 0 ? .text : .continuation
            return .frame(WebSocketFrame(fin: sent + length >= totalBytes, opcode: opcode, data: buffer))
        case .cumulativeDeltas(let count, let chunk, let final), .appendingDeltas(let count, let chunk, let final):
            let cumulative = if case .cumulativeDeltas = action { true } else { false }
            guard progress < count + (final ? 1 : 0) else { return nil }
            var payload: [String: JSONValue] = ["runId": .string(step.runId), "sessionKey": .string(step.sessionKey)]
            payload["seq"] = .int(progress + 1)
            if progress < count {
                replySoFar += chunk
                payload["state"] = "delta"
                if cumulative {
                    payload["message"] = Self.message(replySoFar)
                } else {
                    payload["deltaText"] = .string(chunk)
                }
            } else {
                payload["state"] = "final"
                payload["message"] = Self.message(replySoFar)
            }
            return .frame(textFrame(event("chat", .object(payload)), allocator: allocator))
        case .replyParts(let parts, let finalText):
            guard progress <= parts.count else { return nil }
            var payload: [String: JSONValue] = ["runId": .string(step.runId), "sessionKey": .string(step.sessionKey)]
            payload["seq"] = .int(progress + 1)
            if progress < parts.count {
                payload["state"] = "delta"
                payload["deltaText"] = .string(parts[progress])
            } else {
                payload["state"] = "final"
                payload["message"] = Self.message(finalText ?? parts.joined())
            }
            return .frame(textFrame(event("chat", .object(payload)), allocator: allocator))
        case .pings(let count):
            guard progress < count else { return nil }
            var buffer = allocator.buffer(capacity: 4)
            buffer.writeInteger(UInt32(truncatingIfNeeded: progress))
            return .frame(WebSocketFrame(fin: true, opcode: .ping, data: buffer))
        case .close(let code, let reason):
            return progress == 0 ? .close(code: code, reason: reason) : nil
        case .drop:
            return progress == 0 ? .drop : nil
        }
    }

    private func event(_ name: String, _ payload: JSONValue) -> String {
        eventSeq += 1
        return JSONSerializer.string(
            ["type": "event", "event": .string(name), "payload": payload, "seq": .int(eventSeq)])
    }

    private static func message(_ text: String) -> JSONValue {
        ["role": "assistant", "content": [["type": "text", "text": .string(text)]], "timestamp": 0]
    }

    private func textFrame(_ text: String, allocator: ByteBufferAllocator) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, data: allocator.buffer(string: text))
    }

    private func write(text: String, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(textFrame(text, allocator: context.channel.allocator)), promise: nil)
        record { $0.framesWritten += 1 }
    }
}

extension Date {
    fileprivate static var nowMs: Double { Date().timeIntervalSince1970 * 1000 }
}
