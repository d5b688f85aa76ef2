import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The `no-detail-codes` quirk on the wire: refusals keep their code and message, lose `details`.
@Suite("Test gateway quirk: no detail codes")
struct NoDetailCodesQuirkTests {
    @Test(arguments: [GatewayQuirks(), .noDetailCodes])
    func aRefusedConnectHasDetailsOnlyInTheReferenceDialect(quirks: GatewayQuirks) async throws {
        var configuration = TestGatewayConfiguration()
        configuration.quirks = quirks
        try await withTestGateway(configuration) { gateway in
            var helper = HandshakeHelper()
            helper.auth = ConnectAuth(token: "wrong")
            let (client, response) = try await helper.connect(to: gateway.url)
            #expect(response["ok"] == false)
            #expect(response["error"]?["code"] == "INVALID_REQUEST")
            #expect(
                response["error"]?["message"]?.stringValue?.hasPrefix("unauthorized: gateway token mismatch") == true)
            if quirks.contains(.noDetailCodes) {
                #expect(response["error"]?["details"] == nil)
            } else {
                #expect(response["error"]?["details"]?["code"] == "AUTH_TOKEN_MISMATCH")
                #expect(response["error"]?["details"]?["recommendedNextStep"] == "retry_with_device_token")
            }
            await client.close()
        }
    }

    @Test func aPairingRefusalKeepsItsMessageAndCloseReason() async throws {
        var configuration = TestGatewayConfiguration(pairing: .requireApproval)
        configuration.quirks = .noDetailCodes
        try await withTestGateway(configuration) { gateway in
            let (client, response) = try await HandshakeHelper().connect(to: gateway.url)
            #expect(response["error"]?["code"] == "NOT_PAIRED")
            #expect(response["error"]?["message"] == "pairing required")
            #expect(response["error"]?["details"] == nil)
            #expect(try await client.closeCode() == GatewayCloseCode.policyViolation)
            #expect(await gateway.pendingPairingRequests().count == 1)
        }
    }

    @Test func theQuirkHasItsCommandLineName() {
        #expect(GatewayQuirks(name: "no-detail-codes") == .noDetailCodes)
        #expect(GatewayQuirks.noDetailCodes.names == ["no-detail-codes"])
    }
}
