import OpenClawProtocol
import Synchronization

/// A device token the gateway issued in `hello-ok.auth`, reused on the next connect.
public struct DeviceTokenRecord: Sendable, Hashable {
    public var token: String
    public var role: GatewayRole
    public var scopes: [String]
    public var issuedAtMs: Int?

    public init(token: String, role: GatewayRole, scopes: [String], issuedAtMs: Int? = nil) {
        self.token = token
        self.role = role
        self.scopes = scopes
        self.issuedAtMs = issuedAtMs
    }
}

extension DeviceTokenRecord: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never prints the token itself.
    public var description: String { "DeviceTokenRecord(role: \(role), scopes: \(scopes), token: <redacted>)" }
    public var debugDescription: String { description }
}

/// Which token: tokens are per gateway, per device and per role.
public struct DeviceTokenKey: Sendable, Hashable {
    public var gateway: String
    public var deviceId: String
    public var role: GatewayRole

    public init(gateway: String, deviceId: String, role: GatewayRole) {
        self.gateway = gateway
        self.deviceId = deviceId
        self.role = role
    }

    var storageKey: String { "\(gateway)|\(deviceId)|\(role)" }
}

/// A device token or certificate pin store could not read or write its file (or the Keychain).
public struct CredentialStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the store keeps its data.
    public let path: String
    /// What went wrong, in words.
    public let reason: String

    /// `path` names where the store keeps tokens (a file, or the Keychain for the iOS app's store).
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "cannot use the credential file \(path): \(reason)" }
}

/// Persists device tokens: a 0600 file here, the Keychain in the iOS app.
public protocol DeviceTokenStore: Sendable {
    func load(_ key: DeviceTokenKey) throws(CredentialStoreError) -> DeviceTokenRecord?
    func save(_ record: DeviceTokenRecord, for key: DeviceTokenKey) throws(CredentialStoreError)
    func remove(_ key: DeviceTokenKey) throws(CredentialStoreError)
}

/// All device tokens in one JSON file, mode 0600, replaced atomically on every change.
public final class FileDeviceTokenStore: DeviceTokenStore {
    public let path: String
    private let file: SecureRecordFile<DeviceTokenRecord>

    /// `path` is usually `<state dir>/credentials/device-tokens.json`.
    public init(path: String) {
        self.path = path
        file = SecureRecordFile(
            path: path, section: "tokens", kind: "a device token file",
            decode: { entry in
                guard let token = entry["token"]?.nonEmptyStringValue else { return nil }
                return DeviceTokenRecord(
                    token: token,
                    role: entry["role"]?.stringValue.map(GatewayRole.init(rawValue:)) ?? .operator,
                    scopes: entry["scopes"]?.stringArrayValue ?? [],
                    issuedAtMs: entry["issuedAtMs"]?.intValue
                )
            },
            encode: { record in
                .object(dropping: [
                    ("token", .string(record.token)), ("role", .string(record.role.rawValue)),
                    ("scopes", .strings(record.scopes)), ("issuedAtMs", .int(record.issuedAtMs)),
                ])
            }
        )
    }

    public func load(_ key: DeviceTokenKey) throws(CredentialStoreError) -> DeviceTokenRecord? {
        try file.records()[key.storageKey]
    }

    /// Every `hello-ok` hands the token over again; the file is rewritten only when it changed.
    public func save(_ record: DeviceTokenRecord, for key: DeviceTokenKey) throws(CredentialStoreError) {
        try file.update { $0[key.storageKey] = record }
    }

    public func remove(_ key: DeviceTokenKey) throws(CredentialStoreError) {
        try file.update { $0.removeValue(forKey: key.storageKey) }
    }

    /// Removes every token of one gateway (``DeviceTokenKey/gateway``), for every device and role; the
    /// file goes when nothing is left.
    public func removeAll(gateway: String) throws(CredentialStoreError) {
        try file.update { $0 = $0.filter { !$0.key.hasPrefix(gateway + "|") } }
    }
}

/// Device tokens in memory only.
public final class InMemoryDeviceTokenStore: DeviceTokenStore {
    private let records = Mutex<[DeviceTokenKey: DeviceTokenRecord]>([:])

    public init() {}

    public func load(_ key: DeviceTokenKey) throws(CredentialStoreError) -> DeviceTokenRecord? {
        records.withLock { $0[key] }
    }

    public func save(_ record: DeviceTokenRecord, for key: DeviceTokenKey) throws(CredentialStoreError) {
        records.withLock { $0[key] = record }
    }

    public func remove(_ key: DeviceTokenKey) throws(CredentialStoreError) {
        _ = records.withLock { $0.removeValue(forKey: key) }
    }
}
