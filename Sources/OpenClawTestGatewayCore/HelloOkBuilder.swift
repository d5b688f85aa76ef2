import OpenClawProtocol

/// Builds the `hello-ok` payload in the shape of the configured version.
///
/// v3: `auth` only when a device token was issued. v4: `auth` always (role and scopes at least),
/// `features.capabilities` and `policy.attachments`.
struct HelloOkBuilder: Sendable {
    var configuration: TestGatewayConfiguration
    var connId: String
    var role: String
    var scopes: [String]
    var deviceToken: DeviceToken?
    /// Tokens for the other roles of a bootstrap grant (`auth.deviceTokens`).
    var handoff: [(role: String, token: DeviceToken)] = []
    var presence: [JSONValue]
    var health: JSONValue
    var stateVersion: JSONValue
    var uptimeMs: Int

    var payload: JSONValue {
        var features: [String: JSONValue] = [
            "methods": .strings(GatewayCatalog.methods(v4: configuration.speaksV4Shapes, quirks: configuration.quirks))
                ?? [],
            "events": .strings(GatewayCatalog.events(v4: configuration.speaksV4Shapes, quirks: configuration.quirks))
                ?? [],
        ]
        var policy: [String: JSONValue] = [
            "maxPayload": .int(configuration.maxPayload),
            "maxBufferedBytes": .int(GatewayLimits.defaultMaxBufferedBytes),
            "tickIntervalMs": .int(configuration.tickIntervalMs),
        ]
        if configuration.speaksV4Shapes {
            features["capabilities"] = []
            if let limits = configuration.attachmentLimits {
                policy["attachments"] = [
                    "maxBytes": .int(limits.maxBytes), "maxImageBytes": .int(limits.maxImageBytes),
                ]
            }
        }
        var payload: [String: JSONValue] = [
            "type": "hello-ok",
            "protocol": .int(configuration.protocolNumber),
            "server": ["version": .string(configuration.serverVersion), "connId": .string(connId)],
            "features": .object(features),
            "snapshot": [
                "presence": .array(presence),
                "health": health,
                "stateVersion": stateVersion,
                "uptimeMs": .int(uptimeMs),
                "sessionDefaults": [
                    "defaultAgentId": "main", "mainKey": "main", "mainSessionKey": .string(SessionStore.mainSessionKey),
                    "scope": "per-sender",
                ],
            ],
            "policy": .object(policy),
        ]
        if let deviceToken {
            var auth: [String: JSONValue] = [
                "deviceToken": .string(deviceToken.token), "role": .string(role),
                "scopes": .strings(deviceToken.scopes) ?? [], "issuedAtMs": .int(deviceToken.issuedAtMs),
            ]
            if !handoff.isEmpty {
                auth["deviceTokens"] = .array(
                    handoff.map { entry in
                        [
                            "deviceToken": .string(entry.token.token), "role": .string(entry.role),
                            "scopes": .strings(entry.token.scopes) ?? [], "issuedAtMs": .int(entry.token.issuedAtMs),
                        ]
                    })
            }
            payload["auth"] = .object(auth)
        } else if configuration.speaksV4Shapes {
            payload["auth"] = ["role": .string(role), "scopes": .strings(scopes) ?? []]
        }
        return .object(payload)
    }
}
