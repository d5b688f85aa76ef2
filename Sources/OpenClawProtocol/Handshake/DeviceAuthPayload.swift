/// The string a device signs to prove its identity during `connect`.
///
/// `v3|deviceId|clientId|clientMode|role|scopes|signedAtMs|token|nonce|platform|deviceFamily`,
/// joined with `|`, no escaping. Platform and device family are trimmed and ASCII-lower-cased, as the
/// gateway normalises them before verifying. Both v3 and v4 gateways verify this form.
public struct DeviceAuthPayload: Sendable, Hashable {
    public var deviceId: String
    public var clientId: String
    public var clientMode: String
    public var role: GatewayRole
    public var scopes: [String]
    public var signedAtMs: Int
    public var token: String
    public var nonce: String
    public var platform: String
    public var deviceFamily: String

    public init(
        deviceId: String,
        clientId: String,
        clientMode: String,
        role: GatewayRole,
        scopes: [String],
        signedAtMs: Int,
        token: String,
        nonce: String,
        platform: String,
        deviceFamily: String
    ) {
        self.deviceId = deviceId
        self.clientId = clientId
        self.clientMode = clientMode
        self.role = role
        self.scopes = scopes
        self.signedAtMs = signedAtMs
        self.token = token
        self.nonce = nonce
        self.platform = platform
        self.deviceFamily = deviceFamily
    }

    /// The v3 payload string.
    public var v3: String {
        [
            "v3", deviceId, clientId, clientMode, role.rawValue.isEmpty ? GatewayRole.operator.rawValue : role.rawValue,
            scopes.joined(separator: ","),
            String(signedAtMs), token, nonce, Self.normalizeMetadata(platform), Self.normalizeMetadata(deviceFamily),
        ].joined(separator: "|")
    }

    /// The older v2 payload (no platform or family); gateways still accept it, we never sign it.
    public var v2: String {
        [
            "v2", deviceId, clientId, clientMode, role.rawValue.isEmpty ? GatewayRole.operator.rawValue : role.rawValue,
            scopes.joined(separator: ","),
            String(signedAtMs), token, nonce,
        ].joined(separator: "|")
    }

    /// Trim, then lower-case ASCII letters only (other characters are left as they are).
    public static func normalizeMetadata(_ value: String) -> String {
        let trimmed = value.trimmingASCIIWhitespace()
        return String(
            String.UnicodeScalarView(
                trimmed.unicodeScalars.map { scalar in
                    (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
                }
            )
        )
    }
}

/// base64url without padding, the encoding of device public keys and signatures.
public enum Base64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url or standard base64, padded or not (the gateway tolerates both). Nil if invalid.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - 48 + 52)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let count = min(4, values.count - index)
            var chunk: UInt32 = 0
            for offset in 0..<4 {
                chunk = chunk << 6 | (offset < count ? UInt32(values[index + offset]) : 0)
            }
            output.append(UInt8(chunk >> 16 & 0xFF))
            if count > 2 { output.append(UInt8(chunk >> 8 & 0xFF)) }
            if count > 3 { output.append(UInt8(chunk & 0xFF)) }
            index += 4
        }
        return output
    }
}
