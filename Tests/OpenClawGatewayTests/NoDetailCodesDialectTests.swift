import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// A client against a gateway whose refusals carry no `details` (the `no-detail-codes` quirk: releases
/// before detail codes, and third-party gateways that copied only upstream's messages) still tells the
/// refusals apart, through the one text fallback.
@Suite("Refusals without detail codes")
struct NoDetailCodesDialectTests {
    static func gateway(
        _ configure: (inout TestGatewayConfiguration) -> Void = { _ in }
    ) -> TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration()
        configuration.quirks = .noDetailCodes
        configure(&configuration)
        return configuration
    }

    @Test func aWrongTokenIsAnAuthFailure() async throws {
        try await withTestGateway(Self.gateway()) { gateway in
            let connection = try Harness.connection(to: gateway, credential: .token("wrong"))
            do {
                try await connection.connect()
                Issue.record("a wrong token was accepted")
            } catch let error as GatewayError {
                guard case .authFailed(let failure) = error else {
                    Issue.record("expected an auth failure, got \(error)")
                    return
                }
                #expect(failure.code == nil, "the quirk sends no details.code")
                #expect(failure.recommendedNextStep == nil)
                #expect(failure.message.hasPrefix("unauthorized: gateway token mismatch"))
            }
        }
    }

    @Test func anUnapprovedDeviceIsPairingRequired() async throws {
        try await withTestGateway(Self.gateway { $0.pairing = .requireApproval }) { gateway in
            let connection = try Harness.connection(to: gateway)
            await #expect(throws: GatewayError.pairingRequired(.init(requestId: nil, reason: nil))) {
                try await connection.connect()
            }
            // The request exists on the gateway; `openclaw devices list` shows its id.
            #expect(await gateway.pendingPairingRequests().count == 1)
        }
    }

    @Test func anUnknownProtocolVersionIsAProtocolMismatch() async throws {
        try await withTestGateway(Self.gateway { $0.protocolNumber = 5 }) { gateway in
            let connection = try Harness.connection(to: gateway)
            await #expect(throws: GatewayError.protocolMismatch(expected: nil)) { try await connection.connect() }
        }
    }

    @Test(arguments: [MissingScopeStyle.legacy, .forbidden])
    func aMissingScopeIsReadFromTheMessage(style: MissingScopeStyle) async throws {
        try await withTestGateway(Self.gateway { $0.missingScopeStyle = style }) { gateway in
            let connection = try Harness.connection(to: gateway) { $0.scopes = [OperatorScope.read] }
            try await connection.connect()
            await #expect(throws: GatewayError.missingScope(scope: "operator.write", method: "chat.send")) {
                try await connection.request(
                    GatewayMethodName.chatSend, params: ["sessionKey": "main", "message": "hi", "idempotencyKey": "k1"])
            }
            await connection.disconnect()
        }
    }
}
