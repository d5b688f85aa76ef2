import OpenClawProtocol

/// Nodes: `role: "node"` connections, `node.list`, and `node.invoke` relayed to the node as a
/// `node.invoke.request` event whose `node.invoke.result` answers the operator (or a timeout does).
final class NodeRelayFeature {
    var registry = NodeRegistry()

    init() {}

    static let methods: Set<String> = [
        GatewayMethodName.nodeList, GatewayMethodName.nodeDescribe, GatewayMethodName.nodeInvoke,
        GatewayMethodName.nodeInvokeResult, GatewayMethodName.nodeEvent, GatewayMethodName.nodeInvokeProgress,
    ]
    static let defaultNodeInvokeTimeoutMs = 30_000

    func handle(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        switch request.method {
        case GatewayMethodName.nodeList:
            guard gateway.validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
            let rows = registry.nodes.values.sorted { $0.nodeId < $1.nodeId }.map(\.json)
            gateway.respond(
                to: id, requestId: request.id, payload: ["ts": .int(GatewayHub.nowMs()), "nodes": .array(rows)])
        case GatewayMethodName.nodeDescribe:
            guard let params = gateway.validParams(request, shape: ProtocolShapes.nodeDescribeParams, from: id) else {
                return
            }
            guard let node = registry.node(id: params["nodeId"]?.stringValue ?? "") else {
                gateway.respond(
                    to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unknown nodeId"))
                return
            }
            // Upstream answers `{ts, ...node}` (`server-methods/nodes.ts` "node.describe").
            var described = node.json.objectValue ?? [:]
            described["ts"] = .int(GatewayHub.nowMs())
            gateway.respond(to: id, requestId: request.id, payload: .object(described))
        case GatewayMethodName.nodeInvoke: handleNodeInvoke(request, from: id, in: gateway)
        case GatewayMethodName.nodeInvokeResult: handleNodeInvokeResult(request, from: id, in: gateway)
        case GatewayMethodName.nodeEvent: handleNodeEvent(request, from: id, in: gateway)
        case GatewayMethodName.nodeInvokeProgress: handleNodeInvokeProgress(request, from: id, in: gateway)
        default:
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }

    /// A node finished its handshake.
    func register(_ id: Int, params: JSONValue, deviceId: String?) {
        let nodeId = deviceId ?? params["client"]?["id"]?.stringValue ?? "node-\(id)"
        registry.nodes[id] = ConnectedNode(
            connectionId: id, nodeId: nodeId, connectParams: params, connectedAtMs: GatewayHub.nowMs())
    }

    /// A socket closed: a node's invokes fail at once; an operator's are cancelled on the node.
    func peerClosed(_ id: Int, in gateway: isolated GatewayHub) {
        registry.nodes[id] = nil
        for invoke in registry.pending.values where invoke.nodeConnection == id || invoke.operatorConnection == id {
            if invoke.nodeConnection == id {
                finishNodeInvoke(
                    invoke.invokeId, error: ["code": "NOT_CONNECTED", "message": "node disconnected"], in: gateway)
            } else {
                cancelNodeInvoke(invoke.invokeId, in: gateway)
            }
        }
    }

    private func handleNodeInvoke(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard
            let params = gateway.validParams(request, shape: ProtocolShapes.nodeInvokeParams(v4: gateway.v4), from: id),
            let nodeId = params["nodeId"]?.stringValue, let command = params["command"]?.stringValue
        else { return }
        guard let node = registry.node(id: nodeId), gateway.peers[node.connectionId]?.isOpen == true else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .unavailable, message: "node not connected", details: ["code": "NOT_CONNECTED"])
            )
            return
        }
        guard node.commands.contains(command) else {
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "node command not allowed: \(command)"))
            return
        }
        var forwarded = params["params"]
        if command == NodeCommandName.systemRun, !registry.forwardsSystemRunVerbatim {
            switch SystemRunInvokeSanitizer.sanitize(forwarded, nodeId: nodeId, approvals: &gateway.approvals.registry)
            {
            case .forward(let sanitized): forwarded = sanitized
            case .refuse(let code, let message):
                gateway.respond(
                    to: id, requestId: request.id,
                    error: ErrorShape(code: .invalidRequest, message: message, details: ["code": .string(code)]))
                return
            }
        }
        let invokeId = GatewayHub.newId()
        let timeoutMs = params["timeoutMs"]?.intValue ?? Self.defaultNodeInvokeTimeoutMs
        let event = JSONValue.object(dropping: [
            ("id", .string(invokeId)), ("nodeId", .string(nodeId)), ("command", .string(command)),
            ("paramsJSON", forwarded.map { .string(JSONSerializer.string($0)) }), ("timeoutMs", .int(timeoutMs)),
            ("idempotencyKey", params["idempotencyKey"]),
        ])
        var pending = PendingNodeInvoke(
            invokeId: invokeId, operatorConnection: id, operatorRequestId: request.id,
            nodeConnection: node.connectionId,
            nodeId: nodeId, command: command)
        // Unstructured: the invoke's deadline outlives this request; kept with it and cancelled by its result.
        pending.timer = Task { [weak gateway] in
            try? await Task.sleep(for: .milliseconds(timeoutMs))
            guard !Task.isCancelled else { return }
            await gateway?.nodeInvokeTimedOut(invokeId)
        }
        registry.pending[invokeId] = pending
        gateway.sendTargetedEvent(GatewayEventName.nodeInvokeRequest, payload: event, to: node.connectionId)
        if registry.duplicateRequests {
            gateway.sendTargetedEvent(GatewayEventName.nodeInvokeRequest, payload: event, to: node.connectionId)
        }
    }

    func timedOut(_ invokeId: String, in gateway: isolated GatewayHub) {
        guard let invoke = registry.pending[invokeId] else { return }
        gateway.sendTargetedEvent(
            GatewayEventName.nodeInvokeCancel,
            payload: ["invokeId": .string(invokeId), "nodeId": .string(invoke.nodeId)],
            to: invoke.nodeConnection)
        finishNodeInvoke(invokeId, error: ["code": "TIMEOUT", "message": "node invoke timed out"], in: gateway)
    }

    /// The operator gave up (its socket closed, or a test): the node is told to stop.
    func cancelNodeInvoke(_ invokeId: String, in gateway: isolated GatewayHub) {
        guard let invoke = registry.pending.removeValue(forKey: invokeId) else { return }
        invoke.timer?.cancel()
        gateway.sendTargetedEvent(
            GatewayEventName.nodeInvokeCancel,
            payload: ["invokeId": .string(invokeId), "nodeId": .string(invoke.nodeId)],
            to: invoke.nodeConnection)
    }

    private func handleNodeInvokeResult(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.nodeInvokeResultParams, from: id),
            let invokeId = params["id"]?.stringValue
        else { return }
        registry.results.append(params)
        guard registry.pending[invokeId]?.nodeConnection == id else {
            gateway.respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": true])
            return
        }
        gateway.respond(to: id, requestId: request.id, payload: ["ok": true])
        if params["ok"]?.boolValue == true {
            let payload =
                params["payload"] ?? params["payloadJSON"]?.stringValue.flatMap { try? JSONParser().parse($0) }
            finishNodeInvoke(invokeId, payload: payload ?? .null, payloadJSON: params["payloadJSON"], in: gateway)
        } else {
            finishNodeInvoke(invokeId, error: params["error"] ?? [:], in: gateway)
        }
    }

    private func finishNodeInvoke(
        _ invokeId: String, payload: JSONValue, payloadJSON: JSONValue?, in gateway: isolated GatewayHub
    ) {
        guard let invoke = registry.pending.removeValue(forKey: invokeId) else { return }
        invoke.timer?.cancel()
        gateway.respond(
            to: invoke.operatorConnection, requestId: invoke.operatorRequestId,
            payload: [
                "ok": true, "nodeId": .string(invoke.nodeId), "command": .string(invoke.command), "payload": payload,
                "payloadJSON": payloadJSON ?? .string(JSONSerializer.string(payload)),
            ])
    }

    /// Node errors reach the operator as `UNAVAILABLE "<code>: <message>"` with `details.nodeError`.
    private func finishNodeInvoke(_ invokeId: String, error nodeError: JSONValue, in gateway: isolated GatewayHub) {
        guard let invoke = registry.pending.removeValue(forKey: invokeId) else { return }
        invoke.timer?.cancel()
        let code = nodeError["code"]?.stringValue ?? "UNAVAILABLE"
        let message = nodeError["message"]?.stringValue ?? "node invoke failed"
        gateway.respond(
            to: invoke.operatorConnection, requestId: invoke.operatorRequestId,
            error: ErrorShape(
                code: .unavailable, message: "\(code): \(message)",
                details: ["nodeError": ["code": .string(code), "message": .string(message)]]))
    }

    private func handleNodeEvent(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.nodeEventParams, from: id),
            let event = params["event"]?.stringValue
        else { return }
        let payload = params["payload"] ?? params["payloadJSON"]?.stringValue.flatMap { try? JSONParser().parse($0) }
        registry.events.append(
            NodeEventRecord(nodeId: registry.nodes[id]?.nodeId ?? "", event: event, payload: payload))
        // v4 answers `NodeEventResultSchema` (`{ok, event, handled, reason?}`, `nodes.ts`); every event is
        // recorded here, so each counts as handled. v3's answer is `{ok: true}` (gateway-protocol-v3.md §8.3).
        let answer: JSONValue = gateway.v4 ? ["ok": true, "event": .string(event), "handled": true] : ["ok": true]
        gateway.respond(to: id, requestId: request.id, payload: answer)
    }
}

extension GatewayHub {
    /// A relayed invoke's timer fired (the timer runs outside the hub, so it comes back through here).
    func nodeInvokeTimedOut(_ invokeId: String) { nodes.timedOut(invokeId, in: self) }

    func cancelNodeInvoke(_ invokeId: String) { nodes.cancelNodeInvoke(invokeId, in: self) }
    func nodeEventLog() -> [NodeEventRecord] { nodes.registry.events }
    func nodeInvokeResultLog() -> [JSONValue] { nodes.registry.results }
    func connectedNodeIds() -> [String] { nodes.registry.nodes.values.map(\.nodeId).sorted() }
    func setDuplicateNodeInvokes(_ on: Bool) { nodes.registry.duplicateRequests = on }
    func setForwardsSystemRunVerbatim(_ on: Bool) { nodes.registry.forwardsSystemRunVerbatim = on }
    func pendingNodeInvokeIds() -> [String] { nodes.registry.pending.keys.sorted() }
    func nodeProgressLog() -> [String: [NodeProgressChunk]] { nodes.registry.progress }
}
