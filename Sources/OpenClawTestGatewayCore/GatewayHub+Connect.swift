import OpenClawProtocol

extension GatewayHub {
    /// The `connect` request, checked in the gateway's order: params, protocol, role, origin, auth,
    /// device proof, pairing; then a device token and `hello-ok`.
    func handleConnect(requestId: String, params: JSONValue?, from id: Int) {
        connectParamsLog.append(params ?? .null)
        guard let connection = connections[id] else { return }
        if faults.dropConnects > 0 {
            faults.dropConnects -= 1
            drop(id)
            return
        }

        if let rejection = faults.rejectConnect {
            respond(to: id, requestId: requestId, error: rejection)
            closeAfterRefusal(
                id, code: faults.rejectConnectCloseCode, reason: faults.rejectConnectCloseReason ?? rejection.message)
            return
        }
        let problems = ProtocolShapes.connectParams(v4: v4).problems(in: params)
        guard problems.isEmpty, let params else {
            refuse(
                id, requestId,
                ErrorShape(
                    code: .invalidRequest, message: "invalid connect params: " + problems.joined(separator: "; ")))
            return
        }
        let expected = configuration.protocolNumber
        let minProtocol = params["minProtocol"]?.intValue ?? 0
        let maxProtocol = params["maxProtocol"]?.intValue ?? 0
        guard maxProtocol >= expected, minProtocol <= expected else {
            let details: JSONValue =
                v4
                ? [
                    "code": ErrorDetailCode.protocolMismatch.wire, "clientMinProtocol": .int(minProtocol),
                    "clientMaxProtocol": .int(maxProtocol), "expectedProtocol": .int(expected),
                    "minimumProbeProtocol": 3,
                ]
                : ["expectedProtocol": .int(expected)]
            respond(
                to: id, requestId: requestId,
                error: ErrorShape(code: .invalidRequest, message: "protocol mismatch", details: details))
            closeAfterRefusal(id, code: GatewayCloseCode.protocolError, reason: "protocol mismatch")
            return
        }
        let role = params["role"]?.stringValue ?? "operator"
        guard role == "operator" || role == "node" else {
            refuse(id, requestId, ErrorShape(code: .invalidRequest, message: "invalid role"))
            return
        }
        if let origin = connection.handle.origin,
            !BrowserOriginPolicy.allows(
                origin, allowed: configuration.allowedOrigins, fromLoopback: connection.handle.isFromLoopback)
        {
            let message =
                "origin not allowed (open the Control UI from the gateway host or allow it in gateway.controlUi.allowedOrigins)"
            refuse(
                id, requestId,
                ErrorShape(
                    code: .invalidRequest, message: message,
                    details: ["code": ErrorDetailCode.controlUIOriginNotAllowed.wire, "reason": "origin-not-allowed"]))
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
            verifyDeviceToken: { [pairing] candidate in
                guard let deviceId else { return false }
                return pairing.verifyToken(candidate, deviceId: deviceId, role: role, scopes: requestedScopes)
            }
        )
        if let refusal = authLimiter?.refusal(nowMs: Self.nowMs()) {
            refuse(id, requestId, refusal)
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
                authLimiter?.recordFailure(nowMs: Self.nowMs())
                refuse(id, requestId, failure.error)
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
            let verifier = DeviceProofVerifier(nowMs: Self.nowMs(), socketNonce: connection.nonce)
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
                        details: ["code": .string(failure.code), "reason": .string(failure.reason)]))
                return
            }
            let publicKey = device["publicKey"]?.stringValue ?? ""
            if let bootstrapToken {
                guard let grant = bootstrapTokens.redeem(bootstrapToken, nowMs: Self.nowMs()),
                    grant.roles.contains(role)
                else {
                    refuse(id, requestId, BootstrapTokens.invalid)
                    return
                }
                // The grant pairs the device for its roles at once, bounded to the grant's scopes.
                func scopes(for role: String) -> [String] { role == "operator" ? grant.scopes : [] }
                for grantedRole in grant.roles {
                    pairing.approveSilently(
                        deviceId: deviceId, publicKey: publicKey, role: grantedRole, scopes: scopes(for: grantedRole),
                        platform: platform, deviceFamily: deviceFamily)
                }
                grantedScopes = requestedScopes.filter { scopes(for: role).contains($0) }
                issuedToken = pairing.ensureToken(
                    deviceId: deviceId, role: role, scopes: grantedScopes, nowMs: Self.nowMs())
                handoff = grant.roles.filter { $0 != role }.map { other in
                    (
                        other,
                        pairing.ensureToken(
                            deviceId: deviceId, role: other, scopes: scopes(for: other), nowMs: Self.nowMs())
                    )
                }
                admit(
                    id, requestId: requestId, params: params, role: role, scopes: grantedScopes, deviceId: deviceId,
                    authMethod: authMethod, token: issuedToken, handoff: handoff)
                return
            }
            let verdict = pairing.verdict(
                deviceId: deviceId, publicKey: publicKey, role: role, scopes: requestedScopes,
                platform: platform, deviceFamily: deviceFamily)
            if case .required(let reason, let isRepair) = verdict {
                if configuration.pairing == .automatic, reason != .metadataUpgrade {
                    pairing.approveSilently(
                        deviceId: deviceId, publicKey: publicKey, role: role, scopes: requestedScopes,
                        platform: platform, deviceFamily: deviceFamily)
                } else {
                    let request = pairing.request(
                        PendingPairing(
                            requestId: Self.newId(), deviceId: deviceId, publicKey: publicKey, role: role,
                            scopes: requestedScopes, platform: platform, deviceFamily: deviceFamily,
                            displayName: client["displayName"]?.stringValue, clientId: client["id"]?.stringValue ?? "",
                            clientMode: client["mode"]?.stringValue ?? "", reason: reason, isRepair: isRepair,
                            ts: Self.nowMs()
                        ))
                    broadcast(
                        GatewayEventName.devicePairRequested, payload: request.json,
                        include: { ScopePolicy.allows($0.scopes, OperatorScope.pairing) })
                    respond(
                        to: id, requestId: requestId,
                        error: ErrorShape(
                            code: .notPaired, message: "pairing required",
                            details: [
                                "code": ErrorDetailCode.pairingRequired.wire, "requestId": .string(request.requestId),
                                "reason": reason.wire,
                            ]
                        ))
                    closeAfterRefusal(id, code: GatewayCloseCode.policyViolation, reason: "pairing required")
                    return
                }
            }
            issuedToken = pairing.ensureToken(
                deviceId: deviceId, role: role, scopes: requestedScopes, nowMs: Self.nowMs())
        } else if role == "node" {
            refuse(
                id, requestId,
                ErrorShape(
                    code: .notPaired, message: "device identity required",
                    details: ["code": ErrorDetailCode.deviceIdentityRequired.wire]))
            return
        } else {
            grantedScopes = []
        }

        admit(
            id, requestId: requestId, params: params, role: role, scopes: grantedScopes, deviceId: deviceId,
            authMethod: authMethod, token: issuedToken)
    }

    /// A connect failure that closes with 1008 and the error message as reason.
    private func refuse(_ id: Int, _ requestId: String, _ error: ErrorShape) {
        respond(to: id, requestId: requestId, error: error)
        closeAfterRefusal(id, code: GatewayCloseCode.policyViolation, reason: error.message)
    }

    private func admit(
        _ id: Int, requestId: String, params: JSONValue, role: String, scopes: [String],
        deviceId: String?, authMethod: AuthMethod, token: DeviceToken?,
        handoff: [(role: String, token: DeviceToken)] = []
    ) {
        guard var connection = connections[id] else { return }
        let client = params["client"] ?? [:]
        connection.phase = .open
        connection.role = GatewayRole(rawValue: role)
        connection.scopes = Set(scopes)
        connection.caps = Set(params["caps"]?.stringArrayValue ?? [])
        connection.clientName = client["displayName"]?.nonEmptyStringValue ?? client["id"]?.nonEmptyStringValue
        connection.deviceId = deviceId
        connection.authMethod = authMethod
        if client["mode"]?.stringValue != "cli" {
            let key = deviceId ?? client["instanceId"]?.stringValue ?? connection.connId
            connection.presenceKey = key
            presence[key] = .object(dropping: [
                ("host", .string(client["displayName"]?.nonEmptyStringValue)),
                ("version", .string(client["version"]?.nonEmptyStringValue)),
                ("platform", .string(client["platform"]?.nonEmptyStringValue)),
                ("deviceFamily", .string(client["deviceFamily"]?.nonEmptyStringValue)),
                ("modelIdentifier", .string(client["modelIdentifier"]?.nonEmptyStringValue)),
                ("mode", .string(client["mode"]?.nonEmptyStringValue)), ("deviceId", .string(deviceId)),
                ("roles", .strings([role])), ("scopes", .strings(scopes)),
                ("instanceId", .string(client["instanceId"]?.nonEmptyStringValue)), ("reason", "connect"),
                ("ts", .int(Self.nowMs())),
            ])
            presenceVersion += 1
        }
        connections[id] = connection
        if role == "node" { registerNode(id, params: params, deviceId: deviceId) }
        let hello = HelloOkBuilder(
            configuration: configuration, connId: connection.connId, role: role, scopes: scopes,
            deviceToken: token, handoff: handoff, presence: presenceEntries, health: healthSummary(),
            stateVersion: currentStateVersion.json, uptimeMs: Self.nowMs() - startedAtMs
        )
        respond(to: id, requestId: requestId, payload: hello.payload)
    }
}
