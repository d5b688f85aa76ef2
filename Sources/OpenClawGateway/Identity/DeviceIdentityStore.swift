import OpenClawProtocol
import Synchronization

/// Where the device identity lives: a 0600 file here, the Keychain in the iOS app.
public protocol DeviceIdentityStore: Sendable {
    /// The stored identity, or a new one that is stored before it is returned (so the device id a
    /// gateway pairs is never lost).
    func loadOrCreate() throws(DeviceIdentityError) -> DeviceIdentity
}

/// A JSON file `{deviceId, publicKey, privateKey, createdAtMs}` (keys as raw bytes, base64), mode 0600.
public final class FileDeviceIdentityStore: DeviceIdentityStore {
    public let path: String
    private let clock: @Sendable () -> Int
    private let cached = Mutex<DeviceIdentity?>(nil)

    /// `path` is usually `<state dir>/identity/device.json`.
    public init(path: String, clock: @escaping @Sendable () -> Int = { Int(UnixTime.nowMs()) }) {
        self.path = path
        self.clock = clock
    }

    public func loadOrCreate() throws(DeviceIdentityError) -> DeviceIdentity {
        if let identity = cached.withLock({ $0 }) { return identity }
        let identity: DeviceIdentity
        if let stored = try read() {
            identity = stored
        } else {
            identity = DeviceIdentity(createdAtMs: clock())
            try write(identity)
        }
        cached.withLock { $0 = identity }
        return identity
    }

    private func read() throws(DeviceIdentityError) -> DeviceIdentity? {
        let bytes: [UInt8]?
        do {
            bytes = try SecureFile.read(path)
        } catch {
            throw .unreadableStore(path: path, reason: error.description)
        }
        guard let bytes else { return nil }
        guard let json = try? JSONParser().parse(bytes),
            let seedText = json["privateKey"]?.stringValue,
            let seed = Base64URL.decode(seedText), seed.count == 32
        else {
            throw .unreadableStore(path: path, reason: "not a device identity file")
        }
        return try DeviceIdentity(privateKeySeed: seed, createdAtMs: json["createdAtMs"]?.intValue ?? clock())
    }

    private func write(_ identity: DeviceIdentity) throws(DeviceIdentityError) {
        let json: JSONValue = [
            "version": 1,
            "deviceId": .string(identity.deviceId),
            "publicKey": .string(Base64URL.encode(identity.publicKeyBytes)),
            "privateKey": .string(Base64URL.encode(identity.privateKeySeed)),
            "createdAtMs": .int(identity.createdAtMs),
        ]
        do {
            try SecureFile.writeAtomically(JSONSerializer.bytes(json), to: path)
        } catch {
            throw .unwritableStore(path: path, reason: error.description)
        }
    }
}

/// An identity kept in memory only: tests, previews and the in-process demo.
public final class InMemoryDeviceIdentityStore: DeviceIdentityStore {
    private let identity: DeviceIdentity

    public init(identity: DeviceIdentity = DeviceIdentity(createdAtMs: 0)) {
        self.identity = identity
    }

    public func loadOrCreate() throws(DeviceIdentityError) -> DeviceIdentity { identity }
}
