import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// Real gateways validate `connect` against closed schemas: one unknown or malformed field and we are
/// rejected. Every params object this client can produce must validate against the v3 schemas (the
/// generated one and the committed one) and the v4 subset.
@Suite("Connect params against the shared schemas")
struct ConnectParamsSchemaTests {
    static let schemaFiles = SharedSchemas.allFileNames

    /// Every variation the engine produces: both client identities, each credential kind, with and
    /// without the stored device token, optional metadata present or absent, the test-only narrow range.
    static func variants() throws -> [ConnectParams] {
        let identity = DeviceIdentity(createdAtMs: 0)
        let challenge = ConnectChallenge(nonce: "2b0c7a6e-5d1e-4c1a-9f7e-3c2d1b0a9f8e", ts: 1_737_264_000_000)
        let clients = [
            ClientInfo(id: .cli, mode: .cli, version: "0.1.0", platform: "linux"),
            ClientInfo(
                id: .ios,
                mode: .ui,
                version: "1.0",
                platform: "iOS",
                displayName: "Peter's iPhone",
                deviceFamily: "iPhone",
                modelIdentifier: "iPhone17,1",
                instanceId: "3e1b"
            ),
            ClientInfo(id: .macos, mode: .ui, version: "1.0", platform: "macos", displayName: "", deviceFamily: "Mac"),
        ]
        let auths: [ConnectAuth?] = [
            nil, ConnectAuth(token: "t"), ConnectAuth(password: "p"), ConnectAuth(token: "t", password: "p"),
            ConnectAuth(token: "  "),
        ]
        var result: [ConnectParams] = []
        for client in clients {
            for auth in auths {
                for caps in [[], ["tool-events"]] {
                    let scopes = OperatorScope.chatDefault
                    result.append(
                        ConnectParams(
                            client: client,
                            scopes: scopes,
                            caps: caps,
                            device: try identity.proof(
                                for: challenge,
                                client: client,
                                role: "operator",
                                scopes: scopes,
                                auth: auth
                            ),
                            auth: auth,
                            locale: caps.isEmpty ? nil : "en-US",
                            userAgent: caps.isEmpty ? nil : "openclaw-chat/0.1.0"
                        )
                    )
                }
            }
        }
        result.append(ConnectParams(minProtocol: 3, maxProtocol: 3, client: clients[0]))
        return result
    }

    @Test(arguments: schemaFiles)
    func everyVariantValidates(schemaFile: String) throws {
        let validator = JSONSchemaValidator(document: try SharedSchemas.load(schemaFile))
        let variants = try Self.variants()
        #expect(variants.count > 30)
        for params in variants {
            let problems = validator.validate(params.json, definition: "ConnectParams")
            #expect(problems.isEmpty, "\(schemaFile): \(problems) in \(params.json)")
            let frame = RequestFrame(id: "1", method: "connect", params: params.json).json
            #expect(validator.validate(frame, definition: "RequestFrame").isEmpty)
        }
    }

    @Test(arguments: [3, 4])
    func whatTheEngineActuallySentValidates(version: Int) async throws {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: version)) { gateway in
            let tokens = InMemoryDeviceTokenStore()
            let identity = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0))
            let first = try Harness.connection(to: gateway, identityStore: identity, tokenStore: tokens)
            try await first.connect()
            await first.disconnect()
            let second = try Harness.connection(
                to: gateway,
                credential: .none,
                identityStore: identity,
                tokenStore: tokens
            )
            try await second.connect()
            let received = await gateway.receivedConnectParams()
            #expect(received.count == 2)
            for file in Self.schemaFiles {
                let validator = JSONSchemaValidator(document: try SharedSchemas.load(file))
                for params in received {
                    let problems = validator.validate(params, definition: "ConnectParams")
                    #expect(problems.isEmpty, "\(file): \(problems)")
                }
            }
        }
    }

    @Test func theValidatorRejectsAnUnknownField() throws {
        // The check that makes the tests above meaningful: a closed schema refuses what we must never send.
        let validator = JSONSchemaValidator(document: try SharedSchemas.load(SharedSchemas.v3FileName))
        let params = ConnectParams(client: ClientInfo(id: .cli, mode: .cli, version: "1", platform: "linux"))
        guard case .object(var members) = params.json, case .object(var client)? = members["client"] else {
            Issue.record("params are not an object")
            return
        }
        client["buildId"] = "123"
        members["client"] = .object(client)
        #expect(!validator.validate(.object(members), definition: "ConnectParams").isEmpty)
        members["traceparent"] = "x"
        #expect(!validator.validate(.object(members), definition: "ConnectParams").isEmpty)
    }
}
