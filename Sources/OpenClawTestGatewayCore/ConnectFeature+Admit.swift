import OpenClawProtocol

extension ConnectFeature {
    /// A connect failure that closes with 1008 and the error message as reason.
    func refuse(_ id: Int, _ requestId: String, _ error: ErrorShape, in gateway: isolated GatewayHub) {
        gateway.respond(to: id, requestId: requestId, error: error)
        gateway.closeAfterRefusal(id, code: GatewayCloseCode.policyViolation, reason: error.message)
    }

    func admit(
        _ id: Int, requestId: String, params: JSONValue, role: String, scopes: [String],
        deviceId: String?, authMethod: AuthMethod, token: DeviceToken?,
        handoff: [(role: String, token: DeviceToken)] = [], in gateway: isolated GatewayHub
    ) {
        guard var connection = gateway.peers[id] else { return }
        let client = params["client"] ?? [:]
        connection.phase = .open
        connection.role = GatewayRole(rawValue: role)
        connection.scopes = Set(scopes)
        connection.caps = Set(params["caps"]?.stringArrayValue ?? [])
        connection.clientName = client["displayName"]?.nonEmptyStringValue ?? client["id"]?.nonEmptyStringValue
        connection.deviceId = deviceId
        connection.authMethod = authMethod
        if let key = Self.presenceKey(client: client, deviceId: deviceId, connId: connection.connId) {
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
                ("ts", .int(GatewayHub.nowMs())),
            ])
            presenceVersion += 1
        }
        gateway.peers[id] = connection
        if role == "node" { gateway.nodes.register(id, params: params, deviceId: deviceId) }
        let hello = HelloOkBuilder(
            configuration: gateway.configuration, connId: connection.connId, role: role, scopes: scopes,
            deviceToken: token, handoff: handoff, presence: presenceEntries, health: gateway.healthSummary(),
            stateVersion: gateway.currentStateVersion.json, uptimeMs: GatewayHub.nowMs() - gateway.startedAtMs
        )
        gateway.respond(to: id, requestId: requestId, payload: hello.payload)
    }

    /// Where an admitted client sits in the presence list: its device, else its instance, else the
    /// socket. CLI clients are not listed (nil).
    static func presenceKey(client: JSONValue, deviceId: String?, connId: String) -> String? {
        guard client["mode"]?.stringValue != "cli" else { return nil }
        return deviceId ?? client["instanceId"]?.stringValue ?? connId
    }

    /// A socket is gone: its presence entry goes, and everyone hears of it.
    func peerClosed(_ peer: PeerSession, in gateway: isolated GatewayHub) {
        guard let key = peer.presenceKey, presence.removeValue(forKey: key) != nil else { return }
        presenceVersion += 1
        gateway.broadcast("presence", payload: ["presence": .array(presenceEntries)], withStateVersion: true)
    }
}
