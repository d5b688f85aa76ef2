import OpenClawGateway
import Synchronization

/// The gateway the app talks to, as the user entered it: what survives a relaunch.
public struct SavedGateway: Sendable, Equatable, CustomStringConvertible {
    public var url: GatewayURL
    public var credential: GatewayCredential

    public init(url: GatewayURL, credential: GatewayCredential) {
        self.url = url
        self.credential = credential
    }

    /// Never shows the secret (``GatewayCredential`` redacts itself).
    public var description: String { "SavedGateway(\(url), \(credential))" }
}

/// Why the saved gateway could not be read or written.
public struct CredentialStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "the saved gateway could not be used: \(reason)" }
}

/// Where the app keeps the gateways the user entered, with their tokens or passwords: the Keychain on
/// iOS, memory in tests.
///
/// A protocol of its own (not the device token store) because it holds what the *user* typed, and the
/// app must be able to forget a gateway ("sign out", "remove") without losing the device identity or
/// its pairing.
public protocol CredentialStore: Sendable {
    func loadAll() throws(CredentialStorageError) -> SavedGateways
    func saveAll(_ gateways: SavedGateways) throws(CredentialStorageError)
}

extension CredentialStore {
    /// The current gateway.
    public func load() throws(CredentialStorageError) -> SavedGateway? {
        try loadAll().current
    }

    /// Saves the gateway (replacing the one at its address) and makes it current.
    public func save(_ gateway: SavedGateway) throws(CredentialStorageError) {
        var gateways = try loadAll()
        gateways.save(gateway)
        try saveAll(gateways)
    }

    /// Forgets the current gateway; the first remaining one becomes current.
    public func delete() throws(CredentialStorageError) {
        var gateways = try loadAll()
        guard let url = gateways.currentURL else { return }
        gateways.remove(url)
        try saveAll(gateways)
    }
}

/// A ``CredentialStore`` that forgets at exit: tests and previews.
public final class InMemoryCredentialStore: CredentialStore {
    private let stored: Mutex<SavedGateways>

    public init(_ gateway: SavedGateway? = nil) {
        stored = Mutex(SavedGateways(gateway.map { [$0] } ?? []))
    }

    public init(_ gateways: SavedGateways) {
        stored = Mutex(gateways)
    }

    public func loadAll() throws(CredentialStorageError) -> SavedGateways {
        stored.withLock { $0 }
    }

    public func saveAll(_ gateways: SavedGateways) throws(CredentialStorageError) {
        stored.withLock { $0 = gateways }
    }
}
