import OpenClawProtocol

/// The handshake: `connect` checked in the gateway's order, the shared secret (rotatable) and its
/// failure limiter, admission with `hello-ok`, and the presence list admitted clients join. Pairing
/// decisions are `PairingFeature`'s; this feature asks it.
final class ConnectFeature {
    var sharedAuth: TestGatewayAuth
    /// Failed sign-ins; one address, since every client of a test gateway is on loopback.
    var authLimiter: AuthAttemptLimiter?
    /// Every `connect` params received, in order (inspection).
    var paramsLog: [JSONValue] = []
    /// Admitted clients (not CLI ones), by presence key.
    var presence: [String: JSONValue] = [:]
    var presenceVersion = 1
    var healthVersion = 1

    init(configuration: TestGatewayConfiguration) {
        sharedAuth = configuration.auth
        authLimiter = configuration.authRateLimit.map(AuthAttemptLimiter.init(limit:))
    }

    var stateVersion: StateVersion { StateVersion(presence: presenceVersion, health: healthVersion) }

    var presenceEntries: [JSONValue] { presence.keys.sorted().compactMap { presence[$0] } }

    /// The role `connect` asks for: `operator` when absent; nil for any other (`invalid role`).
    static func requestedRole(_ params: JSONValue) -> GatewayRole? {
        let role = GatewayRole(rawValue: params["role"]?.stringValue ?? GatewayRole.operator.rawValue)
        return role == .operator || role == .node ? role : nil
    }

    /// The `connect` request, checked in the gateway's order: params, protocol, role, origin, auth,
    /// device proof, pairing; then a device token and `hello-ok`.
    func handleConnect(requestId: String, params: JSONValue?, from id: Int, in gateway: isolated GatewayHub) {
        paramsLog.append(params ?? .null)
        guard let connection = gateway.peers[id] else { return }
        if gateway.faults.dropConnects > 0 {
            gateway.faults.dropConnects -= 1
            gateway.drop(id)
            return
        }

        if let rejection = gateway.faults.rejectConnect {
            gateway.respond(to: id, requestId: requestId, error: rejection)
            gateway.closeAfterRefusal(
                id, code: gateway.faults.rejectConnectCloseCode,
                reason: gateway.faults.rejectConnectCloseReason ?? rejection.message)
            return
        }
        let problems = ProtocolShapes.connectParams(v4: gateway.v4).problems(in: params)
        guard problems.isEmpty, let params else {
            refuse(
                id, requestId,
                ErrorShape(
                    code: .invalidRequest, message: "invalid connect params: " + problems.joined(separator: "; ")),
                in: gateway)
            return
        }
        let expected = gateway.configuration.protocolNumber
        let minProtocol = params["minProtocol"]?.intValue ?? 0
        let maxProtocol = params["maxProtocol"]?.intValue ?? 0
        guard maxProtocol >= expected, minProtocol <= expected else {
            let details: JSONValue =
                gateway.v4
                ? [
                    "code": ErrorDetailCode.protocolMismatch.wire, "clientMinProtocol": .int(minProtocol),
                    "clientMaxProtocol": .int(maxProtocol), "expectedProtocol": .int(expected),
                    "minimumProbeProtocol": 3,
                ]
                : ["expectedProtocol": .int(expected)]
            gateway.respond(
                to: id, requestId: requestId,
                error: ErrorShape(code: .invalidRequest, message: "protocol mismatch", details: details))
            gateway.closeAfterRefusal(id, code: GatewayCloseCode.protocolError, reason: "protocol mismatch")
            return
        }
        guard let role = Self.requestedRole(params)?.rawValue else {
            refuse(id, requestId, ErrorShape(code: .invalidRequest, message: "invalid role"), in: gateway)
            return
        }
        if let origin = connection.handle.origin,
            !BrowserOriginPolicy.allows(
                origin, allowed: gateway.configuration.allowedOrigins, fromLoopback: connection.handle.isFromLoopback)
        {
            let message =
                "origin not allowed (open the Control UI from the gateway host or allow it in gateway.controlUi.allowedOrigins)"
            refuse(
                id, requestId,
                ErrorShape(
                    code: .invalidRequest, message: message,
                    details: ["code": ErrorDetailCode.controlUIOriginNotAllowed.wire, "reason": "origin-not-allowed"]),
                in: gateway)
            return
        }

        let client = params["client"] ?? [:]
        let requestedScopes = params["scopes"]?.stringArrayValue ?? []
        let device = params["device"]
        let deviceId = device?["id"]?.stringValue
        let authCheck = SharedAuthCheck(
            configured: sharedAuth,
            auth: params["auth"],
            hasDevice: device != nil,
            isCliClient: client["mode"]?.stringValue == "cli",
            verifyDeviceToken: { [pairing = gateway.pairing.registry] candidate in
                guard let deviceId else { return false }
                return pairing.verifyToken(candidate, deviceId: deviceId, role: role, scopes: requestedScopes)
            }
        )
        if let refusal = authLimiter?.refusal(nowMs: GatewayHub.nowMs()) {
            refuse(id, requestId, refusal, in: gateway)
            return
        }
        // A bootstrap token (with a device) stands in for the shared secret; it is redeemed below,
        // once the device proof is verified, so a bad signature does not burn it.
        let bootstrapToken = device == nil ? nil : params["auth"]?["bootstrapToken"]?.nonEmptyStringValue
        let authMethod: AuthMethod
        if bootstrapToken != nil {
            authMethod = .bootstrapToken
        } else {
            switch authCheck.decide() {
            case .success(let method):
                authMethod = method
                authLimiter?.reset()
            case .failure(let failure):
                authLimiter?.recordFailure(nowMs: GatewayHub.nowMs())
                refuse(id, requestId, failure.error, in: gateway)
                return
            }
        }

        let platform = DeviceAuthPayload.normalizeMetadata(client["platform"]?.stringValue ?? "")
        let deviceFamily = DeviceAuthPayload.normalizeMetadata(client["deviceFamily"]?.stringValue ?? "")
        var grantedScopes = requestedScopes
        var issuedToken: DeviceToken?
        var handoff: [(role: String, token: DeviceToken)] = []
        if let device, let deviceId {
            let auth = params["auth"]
            let signatureToken =
                [auth?["token"], auth?["deviceToken"], auth?["bootstrapToken"]]
                .compactMap { $0?.stringValue }.first { !$0.isEmpty } ?? ""
            let verifier = DeviceProofVerifier(nowMs: GatewayHub.nowMs(), socketNonce: connection.nonce)
            let fields = DeviceProofVerifier.SignedFields(
                clientId: client["id"]?.stringValue ?? "", clientMode: client["mode"]?.stringValue ?? "",
                role: GatewayRole(rawValue: role), scopes: requestedScopes, token: signatureToken,
                platform: client["platform"]?.stringValue ?? "", deviceFamily: client["deviceFamily"]?.stringValue ?? ""
            )
            if let failure = verifier.verify(device: device, fields: fields) {
                refuse(
                    id, requestId,
                    ErrorShape(
                        code: .invalidRequest, message: failure.message,
                        details: ["code": .string(failure.code), "reason": .string(failure.reason)]), in: gateway)
                return
            }
            let publicKey = device["publicKey"]?.stringValue ?? ""
            if let bootstrapToken {
                guard let grant = gateway.pairing.bootstrapTokens.redeem(bootstrapToken, nowMs: GatewayHub.nowMs()),
                    grant.roles.contains(role)
                else {
                    refuse(id, requestId, BootstrapTokens.invalid, in: gateway)
                    return
                }
                // The grant pairs the device for its roles at once, bounded to the grant's scopes.
                func scopes(for role: String) -> [String] { role == "operator" ? grant.scopes : [] }
                for grantedRole in grant.roles {
                    gateway.pairing.registry.approveSilently(
                        deviceId: deviceId, publicKey: publicKey, role: grantedRole, scopes: scopes(for: grantedRole),
                        platform: platform, deviceFamily: deviceFamily)
                }
                grantedScopes = requestedScopes.filter { scopes(for: role).contains($0) }
                issuedToken = gateway.pairing.registry.ensureToken(
                    deviceId: deviceId, role: role, scopes: grantedScopes, nowMs: GatewayHub.nowMs())
                handoff = grant.roles.filter { $0 != role }.map { other in
                    (
                        other,
                        gateway.pairing.registry.ensureToken(
                            deviceId: deviceId, role: other, scopes: scopes(for: other), nowMs: GatewayHub.nowMs())
                    )
                }
                admit(
                    id, requestId: requestId, params: params, role: role, scopes: grantedScopes, deviceId: deviceId,
                    authMethod: authMethod, token: issuedToken, handoff: handoff, in: gateway)
                return
            }
            let verdict = gateway.pairing.registry.verdict(
                deviceId: deviceId, publicKey: publicKey, role: role, scopes: requestedScopes,
                platform: platform, deviceFamily: deviceFamily)
            if case .required(let reason, let isRepair) = verdict {
                if gateway.configuration.pairing == .automatic, reason != .metadataUpgrade {
                    gateway.pairing.registry.approveSilently(
                        deviceId: deviceId, publicKey: publicKey, role: role, scopes: requestedScopes,
                        platform: platform, deviceFamily: deviceFamily)
                } else {
                    let request = gateway.pairing.registry.request(
                        PendingPairing(
                            requestId: GatewayHub.newId(), deviceId: deviceId, publicKey: publicKey, role: role,
                            scopes: requestedScopes, platform: platform, deviceFamily: deviceFamily,
                            displayName: client["displayName"]?.stringValue, clientId: client["id"]?.stringValue ?? "",
                            clientMode: client["mode"]?.stringValue ?? "", reason: reason, isRepair: isRepair,
                            ts: GatewayHub.nowMs()
                        ))
                    gateway.broadcast(
                        GatewayEventName.devicePairRequested, payload: request.json,
                        include: { ScopePolicy.allows($0.scopes, OperatorScope.pairing) })
                    gateway.respond(
                        to: id, requestId: requestId,
                        error: ErrorShape(
                            code: .notPaired, message: "pairing required",
                            details: [
                                "code": ErrorDetailCode.pairingRequired.wire, "requestId": .string(request.requestId),
                                "reason": reason.wire,
                            ]
                        ))
                    gateway.closeAfterRefusal(id, code: GatewayCloseCode.policyViolation, reason: "pairing required")
                    return
                }
            }
            issuedToken = gateway.pairing.registry.ensureToken(
                deviceId: deviceId, role: role, scopes: requestedScopes, nowMs: GatewayHub.nowMs())
        } else if role == "node" {
            refuse(
                id, requestId,
                ErrorShape(
                    code: .notPaired, message: "device identity required",
                    details: ["code": ErrorDetailCode.deviceIdentityRequired.wire]), in: gateway)
            return
        } else {
            grantedScopes = []
        }

        admit(
            id, requestId: requestId, params: params, role: role, scopes: grantedScopes, deviceId: deviceId,
            authMethod: authMethod, token: issuedToken, in: gateway)
    }
}
