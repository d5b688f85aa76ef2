#if canImport(Security)
    import Foundation
    import OpenClawGateway
    import Synchronization

    /// This device's Ed25519 identity in the Keychain: the 32-byte seed and its creation time.
    ///
    /// Created once and kept; the lock spans the read and the first write, so two connections
    /// starting together (the chat and a "Test connection") cannot each create one.
    final class KeychainDeviceIdentityStore: DeviceIdentityStore {
        private struct Stored: Codable {
            var privateKey: Data
            var createdAtMs: Int
        }

        private static let location = "Keychain (\(KeychainItem.service), device-identity)"
        private let item = KeychainItem(account: "device-identity")
        private let cached = Mutex<DeviceIdentity?>(nil)

        func loadOrCreate() throws(DeviceIdentityError) -> DeviceIdentity {
            try cached.withLock { cached throws(DeviceIdentityError) in
                if let identity = cached { return identity }
                let identity: DeviceIdentity
                if let stored = try read() {
                    identity = stored
                } else {
                    identity = try create()
                }
                cached = identity
                return identity
            }
        }

        private func read() throws(DeviceIdentityError) -> DeviceIdentity? {
            let data: Data?
            do {
                data = try item.read()
            } catch {
                throw .unreadableStore(path: Self.location, reason: error.description)
            }
            guard let data else { return nil }
            guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
                throw .unreadableStore(path: Self.location, reason: "not a device identity")
            }
            return try DeviceIdentity(privateKeySeed: Array(stored.privateKey), createdAtMs: stored.createdAtMs)
        }

        private func create() throws(DeviceIdentityError) -> DeviceIdentity {
            let identity = DeviceIdentity(createdAtMs: Int(Date().timeIntervalSince1970 * 1000))
            let stored = Stored(privateKey: Data(identity.privateKeySeed), createdAtMs: identity.createdAtMs)
            do {
                try item.write(try JSONEncoder().encode(stored))
            } catch let error as KeychainError {
                throw .unwritableStore(path: Self.location, reason: error.description)
            } catch {
                throw .unwritableStore(path: Self.location, reason: "the identity could not be encoded")
            }
            return identity
        }
    }
#endif
