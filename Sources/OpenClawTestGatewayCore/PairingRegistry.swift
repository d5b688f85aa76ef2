import OpenClawProtocol

/// A device the gateway has approved, with the metadata pinned at approval.
struct PairedDevice: Sendable {
    var deviceId: String
    var publicKey: String
    var roles: Set<String>
    var scopes: Set<String>
    /// Normalised (trimmed, ASCII-lower-cased) `client.platform` and `client.deviceFamily`.
    var platform: String
    var deviceFamily: String
}

/// A pairing request waiting for approval; repeated attempts of one device share it.
struct PendingPairing: Sendable {
    var requestId: String
    var deviceId: String
    var publicKey: String
    var role: String
    var scopes: [String]
    var platform: String
    var deviceFamily: String
    var displayName: String?
    var clientId: String
    var clientMode: String
    var reason: PairingReason
    var isRepair: Bool
    var ts: Int

    /// The `device.pair.requested` payload.
    var json: JSONValue {
        .object(dropping: [
            ("requestId", .string(requestId)), ("deviceId", .string(deviceId)), ("publicKey", .string(publicKey)),
            ("displayName", .string(displayName)), ("platform", .string(platform.isEmpty ? nil : platform)),
            ("deviceFamily", .string(deviceFamily.isEmpty ? nil : deviceFamily)), ("clientId", .string(clientId)),
            ("clientMode", .string(clientMode)), ("role", .string(role)), ("roles", .strings([role])),
            ("scopes", .strings(scopes)), ("remoteIp", "127.0.0.1"), ("silent", false),
            ("isRepair", .bool(isRepair)), ("ts", .int(ts)),
        ])
    }
}

/// A per-(device, role) token issued in `hello-ok.auth`.
struct DeviceToken: Sendable {
    var token: String
    var scopes: [String]
    var issuedAtMs: Int
}

/// What a connecting device needs before it is admitted.
enum PairingVerdict: Sendable {
    case paired
    /// Needs a pairing request, for a new device or a metadata, role or scope upgrade.
    case required(reason: PairingReason, isRepair: Bool)
}

/// Paired devices, pending requests and device tokens: the gateway's pairing store, in memory.
struct PairingRegistry: Sendable {
    private(set) var devices: [String: PairedDevice] = [:]
    private(set) var pending: [String: PendingPairing] = [:]
    private var tokens: [String: DeviceToken] = [:]

    /// Compares a connecting device against its record.
    func verdict(
        deviceId: String, publicKey: String, role: String, scopes: [String], platform: String,
        deviceFamily: String
    ) -> PairingVerdict {
        guard let record = devices[deviceId], record.publicKey == publicKey else {
            return .required(reason: .notPaired, isRepair: false)
        }
        if record.platform != platform || record.deviceFamily != deviceFamily {
            return .required(reason: .metadataUpgrade, isRepair: true)
        }
        if !record.roles.contains(role) { return .required(reason: .roleUpgrade, isRepair: true) }
        if !ScopePolicy.covers(record.scopes, scopes) { return .required(reason: .scopeUpgrade, isRepair: true) }
        return .paired
    }

    /// Records (or widens) a pairing without a request: loopback silent approval.
    mutating func approveSilently(
        deviceId: String, publicKey: String, role: String, scopes: [String],
        platform: String, deviceFamily: String
    ) {
        var record =
            devices[deviceId].flatMap { $0.publicKey == publicKey ? $0 : nil }
            ?? PairedDevice(
                deviceId: deviceId, publicKey: publicKey, roles: [], scopes: [], platform: platform,
                deviceFamily: deviceFamily)
        record.roles.insert(role)
        record.scopes.formUnion(scopes)
        devices[deviceId] = record
    }

    /// The pending request for this device, created or refreshed; the request id stays the same.
    mutating func request(_ candidate: PendingPairing) -> PendingPairing {
        var request = candidate
        if let existing = pending.values.first(where: { $0.deviceId == candidate.deviceId }) {
            request.requestId = existing.requestId
        }
        pending[request.requestId] = request
        return request
    }

    /// Forgets a device: its record, its tokens and any pending request of it.
    mutating func remove(deviceId: String) {
        devices[deviceId] = nil
        tokens = tokens.filter { !$0.key.hasPrefix("\(deviceId)|") }
        pending = pending.filter { $0.value.deviceId != deviceId }
    }

    /// Revokes every device token (devices stay paired): what an operator does after a leak.
    mutating func revokeAllTokens() { tokens.removeAll() }

    /// Approves a pending request; nil when there is no such request.
    mutating func approve(requestId: String) -> PendingPairing? {
        guard let request = pending.removeValue(forKey: requestId) else { return nil }
        var record =
            devices[request.deviceId].flatMap { $0.publicKey == request.publicKey ? $0 : nil }
            ?? PairedDevice(
                deviceId: request.deviceId, publicKey: request.publicKey, roles: [], scopes: [],
                platform: request.platform, deviceFamily: request.deviceFamily)
        record.roles.insert(request.role)
        record.scopes.formUnion(request.scopes)
        record.platform = request.platform
        record.deviceFamily = request.deviceFamily
        devices[request.deviceId] = record
        return request
    }

    /// Whether `candidate` is this device's token for `role` and covers the requested scopes.
    func verifyToken(_ candidate: String, deviceId: String, role: String, scopes: [String]) -> Bool {
        guard let issued = tokens[Self.tokenKey(deviceId, role)] else { return false }
        return issued.token == candidate && ScopePolicy.covers(Set(issued.scopes), scopes)
    }

    /// The device's token for `role`: the current one while it covers `scopes`, else a new one.
    mutating func ensureToken(deviceId: String, role: String, scopes: [String], nowMs: Int) -> DeviceToken {
        let key = Self.tokenKey(deviceId, role)
        if let issued = tokens[key], ScopePolicy.covers(Set(issued.scopes), scopes) { return issued }
        let previous = tokens[key]?.scopes ?? []
        let merged = previous + scopes.filter { !previous.contains($0) }
        let token = DeviceToken(token: Self.randomToken(), scopes: merged, issuedAtMs: nowMs)
        tokens[key] = token
        return token
    }

    private static func tokenKey(_ deviceId: String, _ role: String) -> String { "\(deviceId)|\(role)" }

    /// 32 random bytes, base64url: the shape of real device tokens.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
