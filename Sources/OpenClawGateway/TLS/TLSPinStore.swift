import OpenClawProtocol
import Synchronization

/// One pinned certificate: which one, and since when.
public struct TLSPin: Sendable, Hashable {
    public var fingerprint: TLSFingerprint
    public var pinnedAtMs: Int?

    public init(fingerprint: TLSFingerprint, pinnedAtMs: Int? = nil) {
        self.fingerprint = fingerprint
        self.pinnedAtMs = pinnedAtMs
    }
}

/// Pinned certificates, one per gateway endpoint (``GatewayURL/tlsPinKey``: scheme, host and port,
/// never a path or query, so no secret ever becomes a key).
public protocol TLSPinStore: Sendable {
    func pin(for key: String) throws(CredentialStoreError) -> TLSPin?
    func save(_ pin: TLSPin, for key: String) throws(CredentialStoreError)
    func remove(_ key: String) throws(CredentialStoreError)
    /// Every pin, for listings (`openclaw-chat gateways`, diagnostics).
    func all() throws(CredentialStoreError) -> [String: TLSPin]
}

/// All pins in one JSON file, mode 0600, replaced atomically on every change. A pin is not a secret,
/// but a file anyone can write would let them swap it, so it is kept like the credentials beside it.
public final class FileTLSPinStore: TLSPinStore {
    public let path: String
    private let lock = Mutex(())

    /// `path` is usually `<state dir>/credentials/tls-pins.json`.
    public init(path: String) {
        self.path = path
    }

    public func pin(for key: String) throws(CredentialStoreError) -> TLSPin? {
        try lock.withLock { _ throws(CredentialStoreError) in try readAll()[key] }
    }

    public func save(_ pin: TLSPin, for key: String) throws(CredentialStoreError) {
        try lock.withLock { _ throws(CredentialStoreError) in
            var all = try readAll()
            all[key] = pin
            try writeAll(all)
        }
    }

    public func remove(_ key: String) throws(CredentialStoreError) {
        try lock.withLock { _ throws(CredentialStoreError) in
            var all = try readAll()
            guard all.removeValue(forKey: key) != nil else { return }
            try writeAll(all)
        }
    }

    public func all() throws(CredentialStoreError) -> [String: TLSPin] {
        try lock.withLock { _ throws(CredentialStoreError) in try readAll() }
    }

    private func readAll() throws(CredentialStoreError) -> [String: TLSPin] {
        let bytes: [UInt8]?
        do {
            bytes = try SecureFile.read(path)
        } catch {
            throw CredentialStoreError(path: path, reason: error.description)
        }
        guard let bytes else { return [:] }
        guard let entries = (try? JSONParser().parse(bytes))?["pins"]?.objectValue else {
            throw CredentialStoreError(path: path, reason: "not a TLS pin file")
        }
        return entries.compactMapValues { entry in
            guard let fingerprint = entry["sha256"]?.stringValue.flatMap(TLSFingerprint.init(parsing:)) else {
                return nil
            }
            return TLSPin(fingerprint: fingerprint, pinnedAtMs: entry["pinnedAtMs"]?.intValue)
        }
    }

    private func writeAll(_ all: [String: TLSPin]) throws(CredentialStoreError) {
        let entries = all.mapValues { pin -> JSONValue in
            .object(dropping: [("sha256", .string(pin.fingerprint.hex)), ("pinnedAtMs", .int(pin.pinnedAtMs))])
        }
        do {
            try SecureFile.writeAtomically(JSONSerializer.bytes(["version": 1, "pins": .object(entries)]), to: path)
        } catch {
            throw CredentialStoreError(path: path, reason: error.description)
        }
    }
}

/// Pins in memory only (tests, previews).
public final class InMemoryTLSPinStore: TLSPinStore {
    private let pins = Mutex<[String: TLSPin]>([:])

    public init() {}

    public func pin(for key: String) throws(CredentialStoreError) -> TLSPin? { pins.withLock { $0[key] } }
    public func save(_ pin: TLSPin, for key: String) throws(CredentialStoreError) { pins.withLock { $0[key] = pin } }
    public func remove(_ key: String) throws(CredentialStoreError) { _ = pins.withLock { $0.removeValue(forKey: key) } }
    public func all() throws(CredentialStoreError) -> [String: TLSPin] { pins.withLock { $0 } }
}
