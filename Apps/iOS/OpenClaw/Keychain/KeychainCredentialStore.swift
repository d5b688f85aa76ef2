#if canImport(Security)
    import Foundation
    import OpenClawAppModel
    import OpenClawGateway

    /// The saved gateways (address and token or password of each, and the current one) in one Keychain
    /// item. The single gateway an earlier version saved there is read as a list of one.
    final class KeychainCredentialStore: CredentialStore {
        private struct Stored: Codable {
            var url: String
            var token: String?
            var password: String?
        }

        private struct StoredList: Codable {
            var version: Int
            var current: String?
            var gateways: [Stored]
        }

        private let item = KeychainItem(account: "gateway")

        func loadAll() throws(CredentialStorageError) -> SavedGateways {
            let data: Data?
            do {
                data = try item.read()
            } catch {
                throw CredentialStorageError(reason: error.description)
            }
            guard let data else { return SavedGateways() }
            if let list = try? JSONDecoder().decode(StoredList.self, from: data) {
                let entries = list.gateways.compactMap(Self.gateway(from:))
                return SavedGateways(entries, currentURL: list.current.flatMap { try? GatewayURL(parsing: $0) })
            }
            guard let single = try? JSONDecoder().decode(Stored.self, from: data),
                let gateway = Self.gateway(from: single)
            else {
                throw CredentialStorageError(reason: "the saved gateways are unreadable; enter them again")
            }
            return SavedGateways([gateway])
        }

        func saveAll(_ gateways: SavedGateways) throws(CredentialStorageError) {
            guard !gateways.entries.isEmpty else {
                do {
                    try item.delete()
                } catch {
                    throw CredentialStorageError(reason: error.description)
                }
                return
            }
            let list = StoredList(
                version: 2, current: gateways.currentURL?.absoluteString,
                gateways: gateways.entries.map(Self.stored(from:)))
            do {
                try item.write(try JSONEncoder().encode(list))
            } catch let error as KeychainError {
                throw CredentialStorageError(reason: error.description)
            } catch {
                throw CredentialStorageError(reason: "the gateways could not be encoded")
            }
        }

        private static func gateway(from stored: Stored) -> SavedGateway? {
            guard let url = try? GatewayURL(parsing: stored.url) else { return nil }
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

        private static func stored(from gateway: SavedGateway) -> Stored {
            var stored = Stored(url: gateway.url.absoluteString)
            switch gateway.credential {
            case .token(let token): stored.token = token
            case .password(let password): stored.password = password
            // A setup code's bootstrap token is single-use: never kept.
            case .none, .bootstrapToken: break
            }
            return stored
        }
    }
#endif
