#if canImport(Security)
    import Foundation
    import OpenClawGateway
    import OpenClawProtocol

    /// Device tokens in the Keychain, one item per (gateway, device, role).
    final class KeychainDeviceTokenStore: DeviceTokenStore {
        private struct Stored: Codable {
            var token: String
            var role: String
            var scopes: [String]
            var issuedAtMs: Int?
        }

        func load(_ key: DeviceTokenKey) throws(CredentialStoreError) -> DeviceTokenRecord? {
            let data: Data?
            do {
                data = try item(for: key).read()
            } catch {
                throw Self.failure(key, error.description)
            }
            guard let data else { return nil }
            // An unreadable entry is as good as none: the gateway issues a new token on the next connect.
            guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else { return nil }
            return DeviceTokenRecord(
                token: stored.token, role: GatewayRole(rawValue: stored.role), scopes: stored.scopes,
                issuedAtMs: stored.issuedAtMs)
        }

        func save(_ record: DeviceTokenRecord, for key: DeviceTokenKey) throws(CredentialStoreError) {
            let stored = Stored(
                token: record.token, role: record.role.rawValue, scopes: record.scopes, issuedAtMs: record.issuedAtMs)
            do {
                try item(for: key).write(try JSONEncoder().encode(stored))
            } catch let error as KeychainError {
                throw Self.failure(key, error.description)
            } catch {
                throw Self.failure(key, "the token could not be encoded")
            }
        }

        func remove(_ key: DeviceTokenKey) throws(CredentialStoreError) {
            do {
                try item(for: key).delete()
            } catch {
                throw Self.failure(key, error.description)
            }
        }

        private func item(for key: DeviceTokenKey) -> KeychainItem {
            KeychainItem(account: "device-token|\(key.gateway)|\(key.deviceId)|\(key.role)")
        }

        private static func failure(_ key: DeviceTokenKey, _ reason: String) -> CredentialStoreError {
            CredentialStoreError(path: "Keychain (device token for \(key.gateway))", reason: reason)
        }
    }
#endif
