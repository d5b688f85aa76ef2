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

/// Where the app keeps the gateway URL and its token or password: the Keychain on iOS, memory in tests.
///
/// A protocol of its own (not the device token store) because it holds what the *user* typed, and the
/// app must be able to forget it ("sign out") without losing the device identity or its pairing.
public protocol CredentialStore: Sendable {
    func load() throws(CredentialStorageError) -> SavedGateway?
    func save(_ gateway: SavedGateway) throws(CredentialStorageError)
    func delete() throws(CredentialStorageError)
}

/// A ``CredentialStore`` that forgets at exit: tests and previews.
public final class InMemoryCredentialStore: CredentialStore {
    private let stored: Mutex<SavedGateway?>

    public init(_ gateway: SavedGateway? = nil) {
        stored = Mutex(gateway)
    }

    public func load() throws(CredentialStorageError) -> SavedGateway? {
        stored.withLock { $0 }
    }

    public func save(_ gateway: SavedGateway) throws(CredentialStorageError) {
        stored.withLock { $0 = gateway }
    }

    public func delete() throws(CredentialStorageError) {
        stored.withLock { $0 = nil }
    }
}
