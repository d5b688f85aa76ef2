import OpenClawProtocol
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

extension TLSPinStore {
    /// Pins `certificate` for `url`'s endpoint (``GatewayURL/tlsPinKey``), replacing any pin there: the
    /// one way a certificate becomes trusted, whether a person accepted it or trust on first use did.
    public func trust(
        _ certificate: TLSPeerCertificate, for url: GatewayURL, at date: Date = Date()
    )
        throws(CredentialStoreError)
    {
        let pinnedAtMs = Int(date.timeIntervalSince1970 * 1000)
        try save(TLSPin(fingerprint: certificate.fingerprint, pinnedAtMs: pinnedAtMs), for: url.tlsPinKey)
    }
}

/// All pins in one JSON file, mode 0600, replaced atomically on every change. A pin is not a secret,
/// but a file anyone can write would let them swap it, so it is kept like the credentials beside it.
public final class FileTLSPinStore: TLSPinStore {
    public let path: String
    private let file: SecureRecordFile<TLSPin>

    /// `path` is usually `<state dir>/credentials/tls-pins.json`.
    public init(path: String) {
        self.path = path
        file = SecureRecordFile(
            path: path, section: "pins", kind: "a TLS pin file",
            decode: { entry in
                guard let fingerprint = entry["sha256"]?.stringValue.flatMap(TLSFingerprint.init(parsing:)) else {
                    return nil
                }
                return TLSPin(fingerprint: fingerprint, pinnedAtMs: entry["pinnedAtMs"]?.intValue)
            },
            encode: { pin in
                .object(dropping: [("sha256", .string(pin.fingerprint.hex)), ("pinnedAtMs", .int(pin.pinnedAtMs))])
            }
        )
    }

    public func pin(for key: String) throws(CredentialStoreError) -> TLSPin? { try file.records()[key] }

    public func save(_ pin: TLSPin, for key: String) throws(CredentialStoreError) {
        try file.update { $0[key] = pin }
    }

    public func remove(_ key: String) throws(CredentialStoreError) {
        try file.update { $0.removeValue(forKey: key) }
    }

    public func all() throws(CredentialStoreError) -> [String: TLSPin] { try file.records() }
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
