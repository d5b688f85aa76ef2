import OpenClawProtocol
import Testing

@testable import OpenClawGateway

/// The protocol reference's worked example (§2.5), reproducible because it fixes the seed.
@Suite("Device identity")
struct DeviceIdentityTests {
    let seed: [UInt8] = (1...32).map { UInt8($0) }

    @Test func derivesTheReferencePublicKeyAndDeviceId() throws {
        let identity = try DeviceIdentity(privateKeySeed: seed, createdAtMs: 0)
        #expect(identity.publicKeyBase64URL == "ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ")
        #expect(identity.deviceId == "65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8")
    }

    @Test func buildsTheReferenceV3PayloadAndASignatureThatVerifies() throws {
        let identity = try DeviceIdentity(privateKeySeed: seed, createdAtMs: 0)
        let client = ClientInfo(id: .ios, mode: .ui, version: "1", platform: "iOS", deviceFamily: "iPhone")
        let challenge = ConnectChallenge(nonce: "2b0c7a6e-5d1e-4c1a-9f7e-3c2d1b0a9f8e", ts: 1_737_264_000_000)
        let proof = try identity.proof(
            for: challenge,
            client: client,
            role: "operator",
            scopes: ["operator.read", "operator.write"],
            auth: ConnectAuth(token: "my-gateway-token")
        )
        let expectedPayload =
            "v3|65b60673d6ed884bf01c2c222d82ada0740f29ac3355d6a925c81f17f47a27b8|openclaw-ios|ui|operator|"
            + "operator.read,operator.write|1737264000000|my-gateway-token|2b0c7a6e-5d1e-4c1a-9f7e-3c2d1b0a9f8e|ios|iphone"
        #expect(proof.signedAt == challenge.ts)
        #expect(proof.nonce == challenge.nonce)
        #expect(DeviceIdentity.verify(signature: proof.signature, of: expectedPayload, publicKey: proof.publicKey))
        // The reference signature (computed with Node) verifies with our public key: same payload, same key.
        let reference = "V_UDKpx1Mrv1b6ssvaL_MHQmx7VgRHbquKhpo0X7tKpYNF802t20ivNSL2Anac8CzfeTfSA0rbnUb6h2F4scDw"
        #expect(DeviceIdentity.verify(signature: reference, of: expectedPayload, publicKey: proof.publicKey))
    }

    @Test func rejectsATamperedPayloadOrSignature() throws {
        let identity = DeviceIdentity(createdAtMs: 0)
        let signature = try identity.sign("v3|a|b")
        #expect(DeviceIdentity.verify(signature: signature, of: "v3|a|b", publicKey: identity.publicKeyBase64URL))
        #expect(!DeviceIdentity.verify(signature: signature, of: "v3|a|c", publicKey: identity.publicKeyBase64URL))
        var bytes = Base64URL.decode(signature) ?? []
        bytes[0] ^= 1
        #expect(
            !DeviceIdentity.verify(
                signature: Base64URL.encode(bytes), of: "v3|a|b", publicKey: identity.publicKeyBase64URL)
        )
    }

    @Test func neverPrintsThePrivateKey() throws {
        let identity = try DeviceIdentity(privateKeySeed: seed, createdAtMs: 0)
        let seedText = Base64URL.encode(seed)
        #expect(!"\(identity)".contains(seedText))
        #expect(!String(reflecting: identity).contains(seedText))
        #expect("\(identity)".contains(identity.deviceId))
    }
}
