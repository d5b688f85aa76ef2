import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Handshake over a real socket")
struct HandshakeTests {
    @Test(arguments: [3, 4])
    func connectsAndNegotiatesTheGatewaysVersion(version: Int) async throws {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: version)) { gateway in
            let tokens = InMemoryDeviceTokenStore()
            let connection = try Harness.connection(to: gateway, tokenStore: tokens)
            let session = try await connection.connect()
            #expect(session.protocolVersion.rawValue == version)
            #expect(session.mainSessionKey == "agent:main:main")
            #expect(session.hello.policy.maxPayload == GatewayLimits.defaultMaxPayloadBytes)
            #expect(await connection.state.isConnected)
            // The device token from hello-ok.auth is kept for the next connect.
            let key = DeviceTokenKey(
                gateway: connection.configuration.url.description,
                deviceId: session.deviceId,
                role: "operator"
            )
            #expect(try tokens.load(key)?.token == session.hello.auth?.deviceToken)
            #expect(session.hello.auth?.deviceToken != nil)
            // What we offered: 3...4 whatever the gateway speaks.
            let params = try #require(await gateway.receivedConnectParams().last)
            #expect(params["minProtocol"] == 3)
            #expect(params["maxProtocol"] == 4)
            await connection.disconnect()
            #expect(await connection.state == .disconnected(.closedByClient))
        }
    }

    @Test func aV3OnlyClientIsToldClearlyThatAV4GatewayDoesNotSpeakItsVersion() async throws {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: 4)) { gateway in
            let connection = try Harness.connection(to: gateway) { $0.offeredProtocols = 3...3 }
            await #expect(throws: GatewayError.protocolMismatch(expected: 4)) { try await connection.connect() }
            #expect(await connection.state == .failed(.protocolMismatch(expected: 4)))
        }
    }

    @Test func aGatewayExpectingAnUnknownVersionIsAProtocolMismatch() async throws {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: 5)) { gateway in
            let connection = try Harness.connection(to: gateway)
            do {
                try await connection.connect()
                Issue.record("connected to a v5 gateway")
            } catch let error as GatewayError {
                #expect(error == .protocolMismatch(expected: 5))
                #expect(error.message.contains("3 and 4"))
                #expect(error.nextStep != nil)
            }
        }
    }

    @Test func aWrongTokenIsAnAuthFailureWithANextStepAndNoSecret() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway, credential: .token("wrong-token-value"))
            do {
                try await connection.connect()
                Issue.record("connected with a wrong token")
            } catch let error as GatewayError {
                guard case .authFailed(let failure) = error else {
                    Issue.record("expected authFailed, got \(error)")
                    return
                }
                #expect(failure.code == .authTokenMismatch)
                #expect(!error.isRetryable)
                #expect(!error.description.contains("wrong-token-value"))
                #expect(error.nextStep?.contains("token") == true)
            }
        }
    }

    @Test func pairingRequiredGivesTheApproveCommandThenSucceedsAfterApproval() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.pairing = .requireApproval
        try await withTestGateway(configuration) { gateway in
            let identity = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0))
            let connection = try Harness.connection(to: gateway, identityStore: identity)
            var requestId: String?
            do {
                try await connection.connect()
                Issue.record("connected without approval")
            } catch let error as GatewayError {
                guard case .pairingRequired(let request) = error else {
                    Issue.record("expected pairingRequired, got \(error)")
                    return
                }
                requestId = request.requestId
                #expect(request.approveCommand == "openclaw devices approve \(request.requestId ?? "")")
                #expect(error.nextStep?.contains(request.approveCommand) == true)
                #expect(!error.isRetryable)
            }
            let id = try #require(requestId)
            #expect(await gateway.pendingPairingRequests() == [id])
            await gateway.approvePairing(requestId: id)
            let session = try await connection.connect()
            #expect(session.protocolVersion == .v4)
        }
    }

    @Test func aTamperedSignatureIsRejected() async throws {
        try await withTestGateway { gateway in
            let tampering = RewritingTransport(base: LiveWebSocketTransport()) { text in
                guard text.contains("\"method\":\"connect\""), var json = try? JSONParser().parse(text),
                    case .object(var frame) = json, case .object(var params)? = frame["params"],
                    case .object(var device)? = params["device"], let signature = device["signature"]?.stringValue,
                    var bytes = Base64URL.decode(signature)
                else { return text }
                bytes[5] ^= 0xFF
                device["signature"] = .string(Base64URL.encode(bytes))
                params["device"] = .object(device)
                frame["params"] = .object(params)
                json = .object(frame)
                return JSONSerializer.string(json)
            }
            let connection = try Harness.connection(to: gateway, transport: tampering)
            do {
                try await connection.connect()
                Issue.record("connected with a tampered signature")
            } catch let error as GatewayError {
                guard case .deviceIdentityRejected(let code, _) = error else {
                    Issue.record("expected deviceIdentityRejected, got \(error)")
                    return
                }
                #expect(code == .deviceAuthSignatureInvalid)
            }
        }
    }

    @Test func aGatewayThatIsStartingIsRetryableWithItsDelay() async throws {
        try await withTestGateway { gateway in
            var faults = FaultPlan()
            faults.rejectConnect = ErrorShape(
                code: .unavailable,
                message: "gateway starting; retry shortly",
                details: ["reason": "startup-sidecars"],
                retryable: true,
                retryAfterMs: 500
            )
            faults.rejectConnectCloseCode = 1013
            await gateway.setFaults(faults)
            let connection = try Harness.connection(to: gateway)
            do {
                try await connection.connect()
                Issue.record("connected to a starting gateway")
            } catch let error as GatewayError {
                #expect(error == .gatewayUnavailable(retryAfterMs: 500, message: "gateway starting; retry shortly"))
                #expect(error.isRetryable)
            }
        }
    }

    @Test func aMissingChallengeTimesOut() async throws {
        try await withTestGateway { gateway in
            var faults = FaultPlan()
            faults.omitChallenge = true
            await gateway.setFaults(faults)
            let connection = try Harness.connection(to: gateway) { $0.challengeTimeout = .milliseconds(300) }
            await #expect(throws: GatewayError.challengeTimeout(afterMs: 300)) { try await connection.connect() }
        }
    }

    @Test func aSlowChallengeWithinTheBudgetStillConnects() async throws {
        try await withTestGateway { gateway in
            var faults = FaultPlan()
            faults.challengeDelayMs = 200
            await gateway.setFaults(faults)
            let connection = try Harness.connection(to: gateway) { $0.challengeTimeout = .seconds(2) }
            #expect(try await connection.connect().protocolVersion == .v4)
        }
    }

    @Test func nothingListeningIsAConnectionRefusedError() async throws {
        let configuration = GatewayConnectionConfiguration(
            url: GatewayURL(isSecure: false, host: "127.0.0.1", port: 1),
            client: Harness.client
        )
        let connection = GatewayConnection(
            configuration: configuration,
            identityStore: InMemoryDeviceIdentityStore(),
            tokenStore: InMemoryDeviceTokenStore()
        )
        await #expect(throws: GatewayError.transport(.connectionRefused(host: "127.0.0.1", port: 1))) {
            try await connection.connect()
        }
    }

    @Test func theStoredDeviceTokenAloneAuthenticatesAPairedDevice() async throws {
        try await withTestGateway { gateway in
            let identity = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0))
            let tokens = InMemoryDeviceTokenStore()
            let first = try Harness.connection(to: gateway, identityStore: identity, tokenStore: tokens)
            try await first.connect()
            await first.disconnect()
            // No shared token this time: the device token saved from hello-ok must be enough.
            let second = try Harness.connection(
                to: gateway, credential: .none, identityStore: identity, tokenStore: tokens)
            #expect(try await second.connect().protocolVersion == .v4)
            let params = try #require(await gateway.receivedConnectParams().last)
            let stored = try tokens.load(
                DeviceTokenKey(
                    gateway: second.configuration.url.description,
                    deviceId: try identity.loadOrCreate().deviceId,
                    role: "operator"
                )
            )
            #expect(params["auth"]?["token"]?.stringValue == stored?.token)
            #expect(params["auth"]?["deviceToken"] == nil)
        }
    }

    @Test func concurrentConnectCallsShareOneHandshake() async throws {
        try await withTestGateway { gateway in
            let connection = try Harness.connection(to: gateway)
            async let a = connection.connect()
            async let b = connection.connect()
            let (first, second) = try await (a, b)
            #expect(first == second)
            #expect(await gateway.receivedConnectParams().count == 1)
        }
    }
}
