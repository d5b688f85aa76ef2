import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Setup codes")
struct SetupCodeTests {
    static func encode(_ object: JSONValue) -> String { Base64URL.encode(JSONSerializer.bytes(object)) }

    @Test func bothFormsParseToTheSameCode() throws {
        let fingerprint = String(repeating: "0f", count: 32)
        let text = Self.encode([
            "url": "ws://192.168.1.20:18789", "urls": ["ws://192.168.1.20:18789", "wss://gw.tail1234.ts.net"],
            "bootstrapToken": "boot-1", "tlsFingerprint": .string("sha256:" + fingerprint.uppercased()),
            "expiresAtMs": 2_000_000_000_000,
        ])
        let bare = try SetupCode(parsing: text, now: Date(timeIntervalSince1970: 1_000))
        let wrapped = try SetupCode(parsing: "  oc-pair://\(text)/ \n", now: Date(timeIntervalSince1970: 1_000))
        #expect(bare == wrapped)
        #expect(try SetupCode(parsing: "OC-PAIR://" + text, now: Date(timeIntervalSince1970: 1_000)) == bare)
        // `url` first, then `urls` in order, without the duplicate.
        #expect(bare.urls.map(\.description) == ["ws://192.168.1.20:18789", "wss://gw.tail1234.ts.net"])
        #expect(bare.bootstrapToken == "boot-1")
        #expect(bare.tlsFingerprint?.hex == fingerprint)
        #expect(bare.expiresAt == Date(timeIntervalSince1970: 2_000_000_000))
        // Round trip through the gateway's encoding, and the token never printed.
        #expect(try SetupCode(parsing: bare.encoded, now: Date(timeIntervalSince1970: 1_000)) == bare)
        #expect(!bare.description.contains("boot-1"))
    }

    @Test func aCodeWithoutOptionalFieldsIsFine() throws {
        let code = try SetupCode(parsing: Self.encode(["url": "ws://mini.local:18789", "bootstrapToken": "b"]))
        #expect(code.urls.map(\.description) == ["ws://mini.local:18789"])
        #expect(code.tlsFingerprint == nil && code.expiresAt == nil)
    }

    @Test func anExpiredCodeSaysWhenAndWhatToDo() {
        let text = Self.encode(["url": "ws://h:1", "bootstrapToken": "b", "expiresAtMs": 1_000_000])
        #expect(throws: SetupCodeError.expired(at: Date(timeIntervalSince1970: 1_000))) {
            try SetupCode(parsing: text, now: Date(timeIntervalSince1970: 5_000))
        }
        #expect(SetupCodeError.expired(at: Date()).nextStep.contains("openclaw qr"))
    }

    @Test func malformedCodesAreTypedErrorsThatNeverEchoTheCode() {
        let cases: [(String, SetupCodeError)] = [
            ("", .empty),
            ("   ", .empty),
            ("hello world", .malformed("it is not base64url text")),
            (Self.encode([1, 2]), .malformed("it does not hold a JSON object")),
            (Base64URL.encode(Array("not json".utf8)), .malformed("it does not hold a JSON object")),
            (Self.encode(["bootstrapToken": "b"]), .malformed("it names no gateway URL")),
            (Self.encode(["url": "ws://h:1"]), .malformed("it has no bootstrap token")),
            (
                Self.encode(["url": "ws://h:1", "bootstrapToken": "b", "tlsFingerprint": "abc"]),
                .malformed("its TLS fingerprint is not a SHA-256")
            ),
            (String(repeating: "A", count: 9000), .malformed("it is too long")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.prefix(40))") { try SetupCode(parsing: text) }
        }
        #expect(throws: SetupCodeError.invalidURL("ftp://h", .unsupportedScheme("ftp"))) {
            try SetupCode(parsing: Self.encode(["url": "ftp://h", "bootstrapToken": "secret-b"]))
        }
    }

    @Test func atMostEightAddressesAreTried() throws {
        let urls: [JSONValue] = (1...12).map { .string("ws://10.0.0.\($0):18789") }
        let code = try SetupCode(
            parsing: Self.encode(["url": "ws://10.0.0.1:18789", "urls": .array(urls), "bootstrapToken": "b"]))
        #expect(code.urls.count == SetupCode.maxURLs)
        #expect(code.urls.first?.host == "10.0.0.1")
    }

    @Test(arguments: [SharedSchemas.v3FileName, SharedSchemas.v4FileName])
    func bootstrapAuthIsInTheClosedSchemas(schemaFile: String) throws {
        let validator = JSONSchemaValidator(document: try SharedSchemas.load(schemaFile))
        let client = ClientInfo(id: .cli, mode: .cli, version: "0.1.0", platform: "linux")
        let auth = ConnectAuth(bootstrapToken: "boot")
        let challenge = ConnectChallenge(nonce: "n", ts: 1_737_264_000_000)
        let params = ConnectParams(
            client: client,
            device: try DeviceIdentity(createdAtMs: 0).proof(
                for: challenge, client: client, role: "operator", scopes: OperatorScope.chatDefault, auth: auth),
            auth: auth)
        #expect(validator.validate(params.json, definition: "ConnectParams").isEmpty)
        #expect(params.json["auth"] == ["bootstrapToken": "boot"])
        #expect(auth.signatureToken == "boot")
    }

    @Test func aBootstrapConnectPairsAndKeepsTheHandedOverTokens() async throws {
        try await withTestGateway(TestGatewayConfiguration(pairing: .requireApproval)) { gateway in
            let tokens = InMemoryDeviceTokenStore()
            let identity = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0))
            let token = await gateway.issueBootstrapToken()
            let connection = try Harness.connection(
                to: gateway, credential: .bootstrapToken(token), identityStore: identity, tokenStore: tokens)
            let session = try await connection.connect()
            await connection.disconnect()
            // No approval was needed: the code itself pairs the device.
            #expect(await gateway.pendingPairingRequests().isEmpty)
            let sent = try #require(await gateway.receivedConnectParams().last)
            #expect(sent["auth"] == ["bootstrapToken": .string(token)])
            let url = connection.configuration.url.storageIdentity
            let operatorToken = try tokens.load(
                DeviceTokenKey(gateway: url, deviceId: session.deviceId, role: "operator"))
            let nodeToken = try tokens.load(DeviceTokenKey(gateway: url, deviceId: session.deviceId, role: "node"))
            #expect(operatorToken?.token == session.hello.auth?.deviceToken)
            #expect(nodeToken != nil && nodeToken?.token != operatorToken?.token)

            // From now on the device token signs in (no shared secret, no code).
            let later = try Harness.connection(
                to: gateway, credential: .none, identityStore: identity, tokenStore: tokens)
            _ = try await later.connect()
            await later.disconnect()

            // The code is single-use.
            let again = try Harness.connection(
                to: gateway, credential: .bootstrapToken(token),
                identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 1)))
            let error = await #expect(throws: GatewayError.self) { try await again.connect() }
            guard case .authFailed(let failure)? = error else {
                Issue.record("expected an auth failure, got \(String(describing: error))")
                return
            }
            #expect(failure.code == .authBootstrapTokenInvalid)
            #expect(error?.isRetryable == false)
            #expect(error?.nextStep?.contains("openclaw qr") == true)
        }
    }
}
