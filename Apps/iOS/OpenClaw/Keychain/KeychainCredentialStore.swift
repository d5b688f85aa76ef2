#if canImport(Security)
    import Foundation
    import OpenClawAppModel
    import OpenClawGateway

    /// The saved gateway (address and token or password) in one Keychain item.
    final class KeychainCredentialStore: CredentialStore {
        private struct Stored: Codable {
            var url: String
            var token: String?
            var password: String?
        }

        private let item = KeychainItem(account: "gateway")

        func load() throws(CredentialStorageError) -> SavedGateway? {
            let data: Data?
            do {
                data = try item.read()
            } catch {
                throw CredentialStorageError(reason: error.description)
            }
            guard let data else { return nil }
            guard let stored = try? JSONDecoder().decode(Stored.self, from: data),
                let url = try? GatewayURL(parsing: stored.url)
            else {
                throw CredentialStorageError(reason: "the saved gateway is unreadable; enter it again")
            }
            let credential: GatewayCredential
            if let token = stored.token {
                credential = .token(token)
            } else if let password = stored.password {
                credential = .password(password)
            } else {
                credential = .none
            }
            return SavedGateway(url: url, credential: credential)
        }

        func save(_ gateway: SavedGateway) throws(CredentialStorageError) {
            var stored = Stored(url: gateway.url.absoluteString)
            switch gateway.credential {
            case .token(let token): stored.token = token
            case .password(let password): stored.password = password
            case .none: break
            }
            do {
                try item.write(try JSONEncoder().encode(stored))
            } catch let error as KeychainError {
                throw CredentialStorageError(reason: error.description)
            } catch {
                throw CredentialStorageError(reason: "the gateway could not be encoded")
            }
        }

        func delete() throws(CredentialStorageError) {
            do {
                try item.delete()
            } catch {
                throw CredentialStorageError(reason: error.description)
            }
        }
    }
#endif
