import OpenClawProtocol

/// Nodes: `role: "node"` connections, `node.list`, and `node.invoke` relayed to the node as a
/// `node.invoke.request` event whose `node.invoke.result` answers the operator (or a timeout does).
extension GatewayHub {
    static let nodeMethods: Set<String> = [
        GatewayMethodName.nodeList, GatewayMethodName.nodeDescribe, GatewayMethodName.nodeInvoke,
        GatewayMethodName.nodeInvokeResult, GatewayMethodName.nodeEvent, GatewayMethodName.nodeInvokeProgress,
    ]
    static let defaultNodeInvokeTimeoutMs = 30_000

    func handleNodeMethod(_ request: RequestFrame, from id: Int) {
        switch request.method {
        case GatewayMethodName.nodeList:
            guard validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
            let rows = nodes.nodes.values.sorted { $0.nodeId < $1.nodeId }.map(\.json)
            respond(to: id, requestId: request.id, payload: ["ts": .int(Self.nowMs()), "nodes": .array(rows)])
        case GatewayMethodName.nodeDescribe:
            guard let params = validParams(request, shape: ProtocolShapes.nodeDescribeParams, from: id) else { return }
            guard let node = nodes.node(id: params["nodeId"]?.stringValue ?? "") else {
                respond(
                    to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unknown nodeId"))
                return
            }
            // Upstream answers `{ts, ...node}` (`server-methods/nodes.ts` "node.describe").
            var described = node.json.objectValue ?? [:]
            described["ts"] = .int(Self.nowMs())
            respond(to: id, requestId: request.id, payload: .object(described))
        case GatewayMethodName.nodeInvoke: handleNodeInvoke(request, from: id)
        case GatewayMethodName.nodeInvokeResult: handleNodeInvokeResult(request, from: id)
        case GatewayMethodName.nodeEvent: handleNodeEvent(request, from: id)
        case GatewayMethodName.nodeInvokeProgress: handleNodeInvokeProgress(request, from: id)
        default:
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }

    /// A node finished its handshake.
    func registerNode(_ id: Int, params: JSONValue, deviceId: String?) {
        let nodeId = deviceId ?? params["client"]?["id"]?.stringValue ?? "node-\(id)"
        nodes.nodes[id] = ConnectedNode(
            connectionId: id, nodeId: nodeId, connectParams: params, connectedAtMs: Self.nowMs())
    }

    /// A socket closed: a node's invokes fail at once; an operator's are cancelled on the node.
    func nodeConnectionClosed(_ id: Int) {
        nodes.nodes[id] = nil
        for invoke in nodes.pending.values where invoke.nodeConnection == id || invoke.operatorConnection == id {
            if invoke.nodeConnection == id {
                finishNodeInvoke(invoke.invokeId, error: ["code": "NOT_CONNECTED", "message": "node disconnected"])
            } else {
                cancelNodeInvoke(invoke.invokeId)
            }
        }
    }

    private func handleNodeInvoke(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.nodeInvokeParams(v4: v4), from: id),
            let nodeId = params["nodeId"]?.stringValue, let command = params["command"]?.stringValue
        else { return }
        guard let node = nodes.node(id: nodeId), connections[node.connectionId]?.isOpen == true else {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .unavailable, message: "node not connected", details: ["code": "NOT_CONNECTED"])
            )
            return
        }
        guard node.commands.contains(command) else {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "node command not allowed: \(command)"))
            return
        }
        var forwarded = params["params"]
        if command == "system.run", !nodes.forwardsSystemRunVerbatim {
            switch SystemRunInvokeSanitizer.sanitize(forwarded, nodeId: nodeId, approvals: &approvals) {
            case .forward(let sanitized): forwarded = sanitized
            case .refuse(let code, let message):
                respond(
                    to: id, requestId: request.id,
                    error: ErrorShape(code: .invalidRequest, message: message, details: ["code": .string(code)]))
                return
            }
        }
        let invokeId = Self.newId()
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
        pending.timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(timeoutMs))
            guard !Task.isCancelled else { return }
            await self?.nodeInvokeTimedOut(invokeId)
        }
        nodes.pending[invokeId] = pending
        sendTargetedEvent("node.invoke.request", payload: event, to: node.connectionId)
        if nodes.duplicateRequests { sendTargetedEvent("node.invoke.request", payload: event, to: node.connectionId) }
    }

    private func nodeInvokeTimedOut(_ invokeId: String) {
        guard let invoke = nodes.pending[invokeId] else { return }
        sendTargetedEvent(
            "node.invoke.cancel", payload: ["invokeId": .string(invokeId), "nodeId": .string(invoke.nodeId)],
            to: invoke.nodeConnection)
        finishNodeInvoke(invokeId, error: ["code": "TIMEOUT", "message": "node invoke timed out"])
    }

    /// The operator gave up (its socket closed, or a test): the node is told to stop.
    func cancelNodeInvoke(_ invokeId: String) {
        guard let invoke = nodes.pending.removeValue(forKey: invokeId) else { return }
        invoke.timer?.cancel()
        sendTargetedEvent(
            "node.invoke.cancel", payload: ["invokeId": .string(invokeId), "nodeId": .string(invoke.nodeId)],
            to: invoke.nodeConnection)
    }

    private func handleNodeInvokeResult(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.nodeInvokeResultParams, from: id),
            let invokeId = params["id"]?.stringValue
        else { return }
        nodes.results.append(params)
        guard nodes.pending[invokeId]?.nodeConnection == id else {
            respond(to: id, requestId: request.id, payload: ["ok": true, "ignored": true])
            return
        }
        respond(to: id, requestId: request.id, payload: ["ok": true])
        if params["ok"]?.boolValue == true {
            let payload =
                params["payload"] ?? params["payloadJSON"]?.stringValue.flatMap { try? JSONParser().parse($0) }
            finishNodeInvoke(invokeId, payload: payload ?? .null, payloadJSON: params["payloadJSON"])
        } else {
            finishNodeInvoke(invokeId, error: params["error"] ?? [:])
        }
    }

    private func finishNodeInvoke(_ invokeId: String, payload: JSONValue, payloadJSON: JSONValue?) {
        guard let invoke = nodes.pending.removeValue(forKey: invokeId) else { return }
        invoke.timer?.cancel()
        respond(
            to: invoke.operatorConnection, requestId: invoke.operatorRequestId,
            payload: [
                "ok": true, "nodeId": .string(invoke.nodeId), "command": .string(invoke.command), "payload": payload,
                "payloadJSON": payloadJSON ?? .string(JSONSerializer.string(payload)),
            ])
    }

    /// Node errors reach the operator as `UNAVAILABLE "<code>: <message>"` with `details.nodeError`.
    private func finishNodeInvoke(_ invokeId: String, error nodeError: JSONValue) {
        guard let invoke = nodes.pending.removeValue(forKey: invokeId) else { return }
        invoke.timer?.cancel()
        let code = nodeError["code"]?.stringValue ?? "UNAVAILABLE"
        let message = nodeError["message"]?.stringValue ?? "node invoke failed"
        respond(
            to: invoke.operatorConnection, requestId: invoke.operatorRequestId,
            error: ErrorShape(
                code: .unavailable, message: "\(code): \(message)",
                details: ["nodeError": ["code": .string(code), "message": .string(message)]]))
    }

    private func handleNodeEvent(_ request: RequestFrame, from id: Int) {
        guard let params = validParams(request, shape: ProtocolShapes.nodeEventParams, from: id),
            let event = params["event"]?.stringValue
        else { return }
        let payload = params["payload"] ?? params["payloadJSON"]?.stringValue.flatMap { try? JSONParser().parse($0) }
        nodes.events.append(NodeEventRecord(nodeId: nodes.nodes[id]?.nodeId ?? "", event: event, payload: payload))
        // v4 answers `NodeEventResultSchema` (`{ok, event, handled, reason?}`, `nodes.ts`); every event is
        // recorded here, so each counts as handled. v3's answer is `{ok: true}` (gateway-protocol-v3.md §8.3).
        let answer: JSONValue = v4 ? ["ok": true, "event": .string(event), "handled": true] : ["ok": true]
        respond(to: id, requestId: request.id, payload: answer)
    }

    func nodeEventLog() -> [NodeEventRecord] { nodes.events }
    func nodeInvokeResultLog() -> [JSONValue] { nodes.results }
    func connectedNodeIds() -> [String] { nodes.nodes.values.map(\.nodeId).sorted() }
    func setDuplicateNodeInvokes(_ on: Bool) { nodes.duplicateRequests = on }
    func setForwardsSystemRunVerbatim(_ on: Bool) { nodes.forwardsSystemRunVerbatim = on }
    func pendingNodeInvokeIds() -> [String] { nodes.pending.keys.sorted() }
}
