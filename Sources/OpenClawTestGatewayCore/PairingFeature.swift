import OpenClawProtocol

/// Device pairing: the paired devices and their tokens, pending requests, bootstrap tokens, and the
/// `device.pair.*` methods and events. `connect` consults it; tests approve and revoke through it.
final class PairingFeature {
    var registry = PairingRegistry()
    var bootstrapTokens = BootstrapTokens()

    init() {}

    /// Who hears `device.pair.requested` and `device.pair.resolved`: holders of `operator.pairing`
    /// (or admin).
    static func hearsPairing(_ peer: PeerSession) -> Bool {
        ScopePolicy.allows(peer.scopes, OperatorScope.pairing)
    }

    func handle(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        switch request.method {
        case GatewayMethodName.devicePairList:
            guard gateway.validParams(request, shape: ProtocolShapes.emptyParams, from: id) != nil else { return }
            gateway.respond(to: id, requestId: request.id, payload: listPayload())
        case GatewayMethodName.devicePairApprove: handleApprove(request, from: id, in: gateway)
        default:
            gateway.respond(
                to: id, requestId: request.id,
                error: ErrorShape(code: .invalidRequest, message: "unknown method: \(request.method)"))
        }
    }

    /// `device.pair.list`: pending requests oldest first, paired devices by id.
    func listPayload() -> JSONValue {
        let pending = registry.pending.values.sorted { $0.ts < $1.ts }.map(\.json)
        let paired: [JSONValue] = registry.devices.values.sorted { $0.deviceId < $1.deviceId }.map {
            [
                "deviceId": .string($0.deviceId), "publicKey": .string($0.publicKey),
                "roles": .strings($0.roles.sorted()) ?? [], "scopes": .strings($0.scopes.sorted()) ?? [],
            ]
        }
        return ["pending": .array(pending), "paired": .array(paired)]
    }

    private func handleApprove(_ request: RequestFrame, from id: Int, in gateway: isolated GatewayHub) {
        guard let params = gateway.validParams(request, shape: ProtocolShapes.pairApproveParams, from: id),
            let requestId = params["requestId"]?.stringValue
        else { return }
        guard let pending = registry.pending[requestId] else {
            gateway.respond(
                to: id, requestId: request.id, error: ErrorShape(code: .invalidRequest, message: "unknown requestId"))
            return
        }
        approve(requestId: requestId, in: gateway)
        gateway.respond(
            to: id, requestId: request.id,
            payload: [
                "requestId": .string(requestId),
                "device": ["deviceId": .string(pending.deviceId), "role": .string(pending.role)],
            ])
    }

    /// Approves a pending request and tells the pairing audience.
    func approve(requestId: String, in gateway: isolated GatewayHub) {
        guard let request = registry.approve(requestId: requestId) else { return }
        gateway.broadcast(
            GatewayEventName.devicePairResolved,
            payload: [
                "requestId": .string(request.requestId), "deviceId": .string(request.deviceId),
                "decision": "approved", "ts": .int(GatewayHub.nowMs()),
            ],
            include: Self.hearsPairing
        )
    }

    /// Pending request ids, oldest first (inspection).
    var pendingRequestIds: [String] { registry.pending.values.sorted { $0.ts < $1.ts }.map(\.requestId) }
}
