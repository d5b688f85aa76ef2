import Crypto
import OpenClawProtocol

/// This device's Ed25519 key pair, the identity a gateway pairs and remembers.
///
/// The device id is derived, never chosen: lowercase hex SHA-256 of the raw 32-byte public key, as the
/// gateway recomputes it. The private key never leaves this type except through ``privateKeySeed``,
/// which only identity stores read.
public struct DeviceIdentity: Sendable {
    private let privateKey: Curve25519.Signing.PrivateKey
    /// Epoch milliseconds when the key pair was created.
    public let createdAtMs: Int

    /// A fresh random identity.
    public init(createdAtMs: Int) {
        self.privateKey = Curve25519.Signing.PrivateKey()
        self.createdAtMs = createdAtMs
    }

    /// The identity for a stored 32-byte seed.
    public init(privateKeySeed: [UInt8], createdAtMs: Int) throws(DeviceIdentityError) {
        do {
            self.privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: privateKeySeed)
        } catch {
            throw .invalidPrivateKey
        }
        self.createdAtMs = createdAtMs
    }

    /// The raw 32-byte seed, for identity stores only.
    public var privateKeySeed: [UInt8] { Array(privateKey.rawRepresentation) }

    /// The raw 32-byte public key.
    public var publicKeyBytes: [UInt8] { Array(privateKey.publicKey.rawRepresentation) }

    /// The public key as the gateway wants it: raw bytes, base64url without padding.
    public var publicKeyBase64URL: String { Base64URL.encode(publicKeyBytes) }

    public var deviceId: String { Self.deviceId(forPublicKey: publicKeyBytes) }

    /// Signs `payload`'s UTF-8 bytes; the signature is base64url without padding.
    public func sign(_ payload: String) throws(DeviceIdentityError) -> String {
        do {
            return Base64URL.encode(try privateKey.signature(for: Array(payload.utf8)))
        } catch {
            throw .signingFailed
        }
    }

    /// Builds the `device` block of `connect`, signing the v3 payload for this challenge.
    ///
    /// `signedAt` is the challenge's `ts` (server time), so a wrong clock on this device cannot make the
    /// signature look stale; a challenge without `ts` (older and third-party gateways) is signed with
    /// `localNowMs`.
    public func proof(
        for challenge: ConnectChallenge,
        client: ClientInfo,
        role: GatewayRole,
        scopes: [String],
        auth: ConnectAuth?,
        localNowMs: Int = Int(UnixTime.nowMs())
    ) throws(DeviceIdentityError) -> DeviceProof {
        let signedAt = challenge.signingTimeMs(localNowMs: localNowMs)
        let payload = DeviceAuthPayload(
            deviceId: deviceId,
            clientId: client.id.rawValue,
            clientMode: client.mode.rawValue,
            role: role,
            scopes: scopes,
            signedAtMs: signedAt,
            token: auth?.signatureToken ?? "",
            nonce: challenge.nonce,
            platform: client.platform,
            deviceFamily: client.deviceFamily ?? ""
        )
        return DeviceProof(
            id: deviceId,
            publicKey: publicKeyBase64URL,
            signature: try sign(payload.v3),
            signedAt: signedAt,
            nonce: challenge.nonce
        )
    }

    /// Lowercase hex SHA-256 of a raw public key.
    public static func deviceId(forPublicKey publicKey: some Sequence<UInt8>) -> String {
        let digest = SHA256.hash(data: Array(publicKey))
        let hex = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(64)
        for byte in digest {
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Verifies a base64url (or base64) signature of `payload` by a base64url raw public key.
    /// What a gateway does; used by the test gateway and by tests, since signatures are randomized on
    /// Apple platforms and cannot be compared byte for byte.
    public static func verify(signature: String, of payload: String, publicKey: String) -> Bool {
        guard let keyBytes = Base64URL.decode(publicKey), keyBytes.count == 32,
            let signatureBytes = Base64URL.decode(signature), signatureBytes.count == 64,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes)
        else { return false }
        return key.isValidSignature(signatureBytes, for: Array(payload.utf8))
    }
}

extension DeviceIdentity: CustomStringConvertible, CustomDebugStringConvertible {
    /// Shows the device id only: the private key must never reach a log or a debug dump.
    public var description: String { "DeviceIdentity(\(deviceId))" }
    public var debugDescription: String { description }
}

/// Why the device identity could not be loaded, stored or used; a connection reports it as
/// `GatewayError.localStorage`.
public enum DeviceIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stored seed is not a valid Ed25519 key.
    case invalidPrivateKey
    /// Signing the device proof failed.
    case signingFailed
    /// The identity file exists but cannot be read or parsed.
    case unreadableStore(path: String, reason: String)
    /// The identity file cannot be written.
    case unwritableStore(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidPrivateKey: return "the stored device key is not a valid Ed25519 key"
        case .signingFailed: return "signing the device proof failed"
        case .unreadableStore(let path, let reason): return "cannot read the device identity at \(path): \(reason)"
        case .unwritableStore(let path, let reason): return "cannot write the device identity at \(path): \(reason)"
        }
    }
}
