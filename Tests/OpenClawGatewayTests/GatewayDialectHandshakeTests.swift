import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// Handshakes with gateways that differ from the reference one, over real sockets.
@Suite("Handshake with other gateway dialects")
struct GatewayDialectHandshakeTests {
    static func gateway(_ quirks: GatewayQuirks) -> TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration()
        configuration.quirks = quirks
        return configuration
    }

    @Test func aChallengeWithoutTsIsAnsweredWithTheLocalClock() async throws {
        try await withTestGateway(Self.gateway(.noChallengeTs)) { gateway in
            let connection = try Harness.connection(to: gateway)
            let before = Int(UnixTime.nowMs())
            let session = try await connection.connect()
            let after = Int(UnixTime.nowMs())
            #expect(session.protocolVersion == .v4)
            let signedAt = try #require(await gateway.receivedConnectParams().first?["device"]?["signedAt"]?.intValue)
            #expect((before...after).contains(signedAt))
            await connection.disconnect()
        }
    }

    @Test func aChallengeWithoutNonceIsReportedAsSuchNotAsATimeout() async throws {
        try await withTestGateway { gateway in
            let transport = InboundSplicingTransport(base: LiveWebSocketTransport()) { text in
                [
                    text.contains("connect.challenge")
                        ? #"{"type":"event","event":"connect.challenge","payload":{"ts":1}}"# : text
                ]
            }
            let connection = try Harness.connection(to: gateway, transport: transport) {
                $0.challengeTimeout = .seconds(60)
            }
            await #expect(throws: GatewayError.invalidChallenge(.missingNonce)) { try await connection.connect() }
            let error = GatewayError.invalidChallenge(.missingNonce)
            #expect(error.message.contains("no nonce"))
            #expect(!error.message.contains("within"))
            #expect(!error.isRetryable)
        }
    }

    @Test func aHelloOkWithoutServerConnectsAndSaysSo() async throws {
        try await withTestGateway(Self.gateway(.noServerInHello)) { gateway in
            let connection = try Harness.connection(to: gateway)
            let session = try await connection.connect()
            #expect(session.hello.server.version == "unknown")
            #expect(session.hello.notAdvertised == [.server])
            await connection.disconnect()
        }
    }

    @Test func aRefusalOnASocketLeftOpenIsTheSameErrorAsOnAClosedOne() async throws {
        var errors: [GatewayError] = []
        for quirks in [GatewayQuirks(), .keepSocketAfterRefusal] {
            try await withTestGateway(Self.gateway(quirks)) { gateway in
                let connection = try Harness.connection(to: gateway, credential: .token("wrong"))
                do {
                    try await connection.connect()
                    Issue.record("a wrong token was accepted")
                } catch let error as GatewayError {
                    errors.append(error)
                }
                #expect(await connection.state == .failed(errors.last ?? .cancelled))
            }
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
        guard case .authFailed? = errors.first else {
            Issue.record("expected an auth failure, got \(errors)")
            return
        }
    }
}
