#if canImport(Security)
    import Foundation
    import Security

    /// One generic-password Keychain item, addressed by service and account.
    ///
    /// Readable after the first unlock (the app may reconnect in the background) and bound to this
    /// device: never synced to iCloud nor restored onto another phone, because a device identity that
    /// moves would be a second device holding the first one's pairing.
    struct KeychainItem: Sendable {
        static let service = "ai.openclaw.client"

        let account: String

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: Self.service,
                kSecAttrAccount as String: account,
            ]
        }

        func read() throws(KeychainError) -> Data? {
            var query = query
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            switch status {
            case errSecSuccess: return result as? Data
            case errSecItemNotFound: return nil
            default: throw KeychainError(status: status)
            }
        }

        func write(_ data: Data) throws(KeychainError) {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = query.merging(attributes) { _, new in new }
                let added = SecItemAdd(item as CFDictionary, nil)
                guard added == errSecSuccess else { throw KeychainError(status: added) }
            } else if status != errSecSuccess {
                throw KeychainError(status: status)
            }
        }

        func delete() throws(KeychainError) {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
        }
    }

    /// A Keychain failure, with the system's description of the status.
    struct KeychainError: Error, Sendable, CustomStringConvertible {
        let status: OSStatus

        var description: String {
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown error"
            return "Keychain error \(status) (\(message))"
        }
    }
#endif
