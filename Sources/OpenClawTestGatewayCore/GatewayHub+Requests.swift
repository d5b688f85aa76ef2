import OpenClawProtocol

extension GatewayHub {
    /// A request after the handshake: role, then scope, then the feature that owns the method.
    func handle(_ request: RequestFrame, from id: Int) {
        guard let connection = peers[id], connection.isOpen else { return }
        let method = request.method
        requestLog.noteArrival(method)
        requestLog.lastParams[method] = request.params ?? [:]
        if GatewayCatalog.nodeOnlyMethods.contains(method) != (connection.role == .node),
            method != GatewayMethodName.health
        {
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unauthorized role: \(connection.role)"))
            return
        }
        if let scope = ScopePolicy.requiredScope(for: method), !ScopePolicy.allows(connection.scopes, scope) {
            respond(
                to: id, requestId: request.id,
                error: ScopePolicy.missingScopeError(scope, style: configuration.missingScopeStyle))
            return
        }
        switch router.feature(for: method) {
        case .catalog?: answerFromCatalog(request, from: id)
        case .chat?: chat.handle(request, from: id, in: self)
        case .sessions?: sessions.handle(request, from: id, in: self)
        case .approvals?: approvals.handle(request, from: id, in: self)
        case .nodeRelay?: nodes.handle(request, from: id, in: self)
        case .pairing?: pairing.handle(request, from: id, in: self)
        case nil:
            respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(method)"))
        }
    }

    /// Validates params against `shape` (absent params count as `{}`); answers the error itself.
    func validParams(_ request: RequestFrame, shape: ObjectShape, from id: Int) -> JSONValue? {
        let params = request.params ?? [:]
        let problems = shape.problems(in: params)
        guard problems.isEmpty else {
            let message = "invalid \(request.method) params: " + problems.joined(separator: "; ")
            respond(to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: message))
            return nil
        }
        return params
    }
}
