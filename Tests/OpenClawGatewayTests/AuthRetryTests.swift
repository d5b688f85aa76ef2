import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// The auth edge cases of upstream clients: one retry with this device's saved token when the gateway
/// offers it, and waiting out a gateway that rate-limits sign-ins.
@Suite("Auth retries over a real socket")
struct AuthRetryTests {
    /// A device paired with the test gateway: its identity and the token saved from `hello-ok`.
    struct PairedDevice {
        let identity = InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0))
        let tokens = InMemoryDeviceTokenStore()

        func pair(with gateway: TestGateway) async throws {
            let connection = try Harness.connection(to: gateway, identityStore: identity, tokenStore: tokens)
            try await connection.connect()
            await connection.disconnect()
        }

        func key(for connection: GatewayConnection) throws -> DeviceTokenKey {
            DeviceTokenKey(
                gateway: connection.configuration.url.storageIdentity,
                deviceId: try identity.loadOrCreate().deviceId,
                role: "operator")
        }
    }

    @Test(arguments: [3, 4])
    func aRefusedTokenIsRetriedOnceBesideTheSavedDeviceToken(version: Int) async throws {
        try await withTestGateway(TestGatewayConfiguration(protocolNumber: version)) { gateway in
            let device = PairedDevice()
            try await device.pair(with: gateway)
            let before = await gateway.receivedConnectParams().count
            let connection = try Harness.connection(
                to: gateway, credential: .token("an-old-shared-token"), identityStore: device.identity,
                tokenStore: device.tokens)
            let session = try await connection.connect()
            #expect(session.protocolVersion.rawValue == version)
            #expect(await connection.signedInWithSavedDeviceToken)

            let saved = try #require(try device.tokens.load(device.key(for: connection))).token
            let attempts = Array(await gateway.receivedConnectParams().dropFirst(before))
            try #require(attempts.count == 2)
            #expect(attempts[0]["auth"] == ["token": "an-old-shared-token"])
            #expect(attempts[1]["auth"] == ["token": "an-old-shared-token", "deviceToken": .string(saved)])

            // The next connect signs in with both at once instead of failing first again.
            await connection.disconnect()
            try await connection.connect()
            #expect(await gateway.receivedConnectParams().count == before + 3)
            await connection.disconnect()
        }
    }

    @Test func aStaleSavedTokenIsForgottenAndTheRefusedTokenIsWhatIsReported() async throws {
        try await withTestGateway { gateway in
            let device = PairedDevice()
            let connection = try Harness.connection(
                to: gateway, credential: .token("an-old-shared-token"), identityStore: device.identity,
                tokenStore: device.tokens)
            let key = try device.key(for: connection)
            try device.tokens.save(
                DeviceTokenRecord(token: "revoked-device-token", role: "operator", scopes: [], issuedAtMs: 0), for: key)
            let before = await gateway.receivedConnectParams().count
            do throws(GatewayError) {
                try await connection.connect()
                Issue.record("connected with a wrong token and a revoked device token")
            } catch .authFailed(let failure) {
                #expect(failure.code == .authTokenMismatch)
            }
            #expect(await gateway.receivedConnectParams().count == before + 2)
            #expect(try device.tokens.load(key) == nil)
            #expect(await connection.signedInWithSavedDeviceToken == false)
            guard case .failed(.authFailed(let shown)) = await connection.state else {
                Issue.record("expected the refusal in the state, got \(await connection.state)")
                return
            }
            #expect(shown.code == .authTokenMismatch)
        }
    }

    @Test func checkingATokenNeverFallsBackToTheSavedOne() async throws {
        try await withTestGateway { gateway in
            let device = PairedDevice()
            try await device.pair(with: gateway)
            let before = await gateway.receivedConnectParams().count
            let connection = try Harness.connection(
                to: gateway, credential: .token("a-mistyped-token"), identityStore: device.identity,
                tokenStore: device.tokens
            ) { $0.retriesWithDeviceToken = false }
            await #expect(throws: GatewayError.self) { try await connection.connect() }
            #expect(await gateway.receivedConnectParams().count == before + 1)
            #expect(try device.tokens.load(device.key(for: connection)) != nil)
        }
    }

    @Test func theSavedTokenIsNotSentInTheClearToAnotherHost() async throws {
        try await withTestGateway { gateway in
            let device = PairedDevice()
            try await device.pair(with: gateway)
            // A plain ws:// address that is not loopback, carried to the test gateway underneath.
            let remote = GatewayURL(isSecure: false, host: "gateway.home.example", port: gateway.port)
            let transport = RedirectingTransport(to: gateway.port)
            let storedUnderRemote = DeviceTokenKey(
                gateway: remote.storageIdentity, deviceId: try device.identity.loadOrCreate().deviceId, role: "operator"
            )
            let saved = try #require(
                try device.tokens.load(
                    DeviceTokenKey(
                        gateway: try GatewayURL(parsing: gateway.url).storageIdentity,
                        deviceId: storedUnderRemote.deviceId, role: "operator")))
            try device.tokens.save(saved, for: storedUnderRemote)
            let before = await gateway.receivedConnectParams().count
            let connection = try Harness.connection(
                url: remote.absoluteString, credential: .token("an-old-shared-token"), identityStore: device.identity,
                tokenStore: device.tokens, transport: transport)
            await #expect(throws: GatewayError.self) { try await connection.connect() }
            let attempts = Array(await gateway.receivedConnectParams().dropFirst(before))
            #expect(attempts.count == 1)
            #expect(attempts.allSatisfy { $0["auth"]?["deviceToken"] == nil })
        }
    }

    @Test func aRateLimitedSignInIsNotRetriedBeforeTheLockoutEnds() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.authRateLimit = AuthRateLimit(maxAttempts: 2, windowMs: 60_000, lockoutMs: 120_000)
        try await withTestGateway(configuration) { gateway in
            for _ in 0..<2 {
                let wrong = try Harness.connection(to: gateway, credential: .token("wrong"))
                await #expect(throws: GatewayError.self) { try await wrong.connect() }
            }
            // Locked out now, even with the right token; the gateway does not say for how long.
            let connection = try Harness.connection(to: gateway, reconnect: .standard)
            do throws(GatewayError) {
                try await connection.connect()
                Issue.record("signed in during a lockout")
            } catch .authFailed(let failure) {
                #expect(failure.isRateLimited)
                #expect(failure.retryAfterMs == nil)
                #expect(failure.rateLimitWait == .milliseconds(GatewayError.AuthFailure.defaultLockoutMs))
                let error = GatewayError.authFailed(failure)
                #expect(error.isRetryable)
                #expect(error.nextStep?.contains("5 min") == true)
            }
        }
    }

    @Test func aToldLockoutIsTheWaitBeforeTheNextAutomaticAttempt() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.authRateLimit = AuthRateLimit(
            maxAttempts: 1, windowMs: 60_000, lockoutMs: 40_000, tellsRetryAfter: true)
        try await withTestGateway(configuration) { gateway in
            let connection = try Harness.connection(to: gateway, reconnect: .standard)
            try await connection.connect()
            let wrong = try Harness.connection(to: gateway, credential: .token("wrong"))
            await #expect(throws: GatewayError.self) { try await wrong.connect() }
            // The gateway restarts its sockets; our reconnect meets the lockout and waits as told.
            await gateway.dropAllConnections()
            let waitsAsTold = await eventually(timeout: .seconds(20)) {
                guard let status = await connection.state.reconnectStatus,
                    case .attemptFailed(.authFailed) = status.cause
                else { return false }
                // 40 s told, less the little that passed, plus up to 10 % spread.
                return status.delay >= .seconds(30) && status.delay <= .seconds(45)
            }
            #expect(waitsAsTold)
            await connection.disconnect()
        }
    }
}

/// Opens every socket to the test gateway on loopback, whatever host the URL names: a remote gateway
/// as far as the connection can tell.
struct RedirectingTransport: WebSocketTransport {
    let port: Int
    init(to port: Int) { self.port = port }

    func connect(to url: GatewayURL, maxFrameSize: Int) async throws(TransportError) -> any WebSocketConnection {
        let local = GatewayURL(isSecure: false, host: "127.0.0.1", port: port, path: url.path)
        return try await LiveWebSocketTransport().connect(to: local, maxFrameSize: maxFrameSize)
    }
}
