import OpenClawGateway
import OpenClawProtocol

/// Checks a `connect.device` proof in the gateway's order: id matches key, signature fresh, nonce
/// present, nonce is this socket's, v3-then-v2 signature, key valid.
struct DeviceProofVerifier: Sendable {
    /// A failed check: `details.code`, `details.reason` and the error message (also the close reason).
    struct Failure: Error, Sendable {
        var code: String
        var reason: String
        var message: String
    }

    /// The connect fields the signed payload is built from.
    struct SignedFields: Sendable {
        var clientId: String
        var clientMode: String
        var role: GatewayRole
        var scopes: [String]
        var token: String
        var platform: String
        var deviceFamily: String
    }

    var nowMs: Int
    var socketNonce: String

    func verify(device: JSONValue, fields: SignedFields) -> Failure? {
        let id = device["id"]?.stringValue ?? ""
        let publicKey = device["publicKey"]?.stringValue ?? ""
        let signature = device["signature"]?.stringValue ?? ""
        let signedAt = device["signedAt"]?.intValue ?? 0
        let nonce = (device["nonce"]?.stringValue ?? "").trimmingCharacters(in: " \t\n\r")

        let keyBytes = Base64URL.decode(publicKey)
        guard let keyBytes, DeviceIdentity.deviceId(forPublicKey: keyBytes) == id else {
            return Failure(
                code: "DEVICE_AUTH_DEVICE_ID_MISMATCH", reason: "device-id-mismatch",
                message: "device identity mismatch")
        }
        guard abs(nowMs - signedAt) <= GatewayLimits.deviceSignatureSkewMs else {
            return Failure(
                code: "DEVICE_AUTH_SIGNATURE_EXPIRED", reason: "device-signature-stale",
                message: "device signature expired")
        }
        guard !nonce.isEmpty else {
            return Failure(
                code: "DEVICE_AUTH_NONCE_REQUIRED", reason: "device-nonce-missing",
                message: "device nonce required")
        }
        guard nonce == socketNonce else {
            return Failure(
                code: "DEVICE_AUTH_NONCE_MISMATCH", reason: "device-nonce-mismatch",
                message: "device nonce mismatch")
        }
        let payload = DeviceAuthPayload(
            deviceId: id, clientId: fields.clientId, clientMode: fields.clientMode, role: fields.role,
            scopes: fields.scopes, signedAtMs: signedAt, token: fields.token, nonce: nonce,
            platform: fields.platform, deviceFamily: fields.deviceFamily
        )
        let signed =
            DeviceIdentity.verify(signature: signature, of: payload.v3, publicKey: publicKey)
            || DeviceIdentity.verify(signature: signature, of: payload.v2, publicKey: publicKey)
        guard signed else {
            return Failure(
                code: "DEVICE_AUTH_SIGNATURE_INVALID", reason: "device-signature",
                message: "device signature invalid")
        }
        guard keyBytes.count == 32 else {
            return Failure(
                code: "DEVICE_AUTH_PUBLIC_KEY_INVALID", reason: "device-public-key",
                message: "device public key invalid")
        }
        return nil
    }
}

extension String {
    /// Trims the given ASCII characters at both ends.
    func trimmingCharacters(in set: String) -> String {
        let members = Set(set)
        guard let first = firstIndex(where: { !members.contains($0) }),
            let last = lastIndex(where: { !members.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
