import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("Test gateway handshake")
struct HandshakeTests {
    @Test func challengeIsTheFirstFrameAndHasNoSeq() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            let first = try await client.next()
            #expect(first["type"] == "event")
            #expect(first["event"] == "connect.challenge")
            #expect(first["seq"] == nil)
            #expect(first["payload"]?["nonce"]?.stringValue?.isEmpty == false)
            #expect((first["payload"]?["ts"]?.intValue ?? 0) > 0)
            await client.close()
        }
    }

    @Test(arguments: [3, 4])
    func signedDeviceHandshake(version: Int) async throws {
        try await withTestGateway(.init(protocolNumber: version)) { gateway in
            let (client, hello) = try await HandshakeHelper().open(gateway.url)
            #expect(hello["type"] == "hello-ok")
            #expect(hello["protocol"]?.intValue == version)
            #expect(hello["auth"]?["deviceToken"]?.stringValue?.isEmpty == false)
            #expect(hello["auth"]?["role"] == "operator")
            #expect(hello["snapshot"]?["sessionDefaults"]?["mainSessionKey"] == "agent:main:main")
            #expect(hello["policy"]?["maxPayload"]?.intValue == 26_214_400)
            #expect(hello["policy"]?["tickIntervalMs"]?.intValue == 30_000)
            #expect((hello["policy"]?["attachments"] != nil) == (version == 4))
            #expect((hello["features"]?["capabilities"] != nil) == (version == 4))
            #expect(await gateway.connectionCount() == 1)
            await client.close()
        }
    }

    @Test(arguments: [3, 4])
    func deviceLessOperatorIsAdmittedWithoutScopes(version: Int) async throws {
        try await withTestGateway(.init(protocolNumber: version)) { gateway in
            var helper = HandshakeHelper()
            helper.identity = nil
            let (client, hello) = try await helper.open(gateway.url)
            if version == 3 {
                #expect(hello["auth"] == nil)
            } else {
                #expect(hello["auth"] == ["role": "operator", "scopes": []])
            }
            let history = try await client.request("chat.history", params: ["sessionKey": "main"])
            #expect(history["error"]?["message"] == "missing scope: operator.read")
            let health = try await client.request("health")
            #expect(health["ok"] == true)
            await client.close()
        }
    }

    @Test func deviceTokenIsStableAndAcceptedInPlaceOfTheSharedToken() async throws {
        try await withTestGateway { gateway in
            var helper = HandshakeHelper()
            let (first, hello) = try await helper.open(gateway.url)
            await first.close()
            let token = try #require(hello["auth"]?["deviceToken"]?.stringValue)
            helper.auth = ConnectAuth(token: token)
            let (second, again) = try await helper.open(gateway.url)
            #expect(again["auth"]?["deviceToken"]?.stringValue == token)
            await second.close()
        }
    }

    @Test func v4GatewayRejectsV3OnlyClientWithDetailsAnd1002() async throws {
        try await withTestGateway(.init(protocolNumber: 4)) { gateway in
            var helper = HandshakeHelper()
            helper.maxProtocol = 3
            let (client, response) = try await helper.connect(to: gateway.url)
            #expect(response["ok"] == false)
            #expect(response["error"]?["code"] == "INVALID_REQUEST")
            #expect(response["error"]?["message"] == "protocol mismatch")
            #expect(
                response["error"]?["details"]
                    == [
                        "code": "PROTOCOL_MISMATCH", "clientMinProtocol": 3, "clientMaxProtocol": 3,
                        "expectedProtocol": 4, "minimumProbeProtocol": 3,
                    ]
            )
            #expect(try await client.closeCode() == 1002)
        }
    }

    @Test func v3AndV5GatewaysReportTheirMismatch() async throws {
        try await withTestGateway(.init(protocolNumber: 3)) { gateway in
            var helper = HandshakeHelper()
            helper.minProtocol = 4
            let (client, response) = try await helper.connect(to: gateway.url)
            #expect(response["error"]?["details"] == ["expectedProtocol": 3])
            #expect(try await client.closeCode() == 1002)
        }
        try await withTestGateway(.init(protocolNumber: 5)) { gateway in
            let (client, response) = try await HandshakeHelper().connect(to: gateway.url)
            #expect(response["error"]?["details"]?["expectedProtocol"] == 5)
            #expect(try await client.closeCode() == 1002)
        }
    }

    @Test func unknownConnectFieldsAreRejected() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            let challenge = try #require(ConnectChallenge(json: try await client.event("connect.challenge")["payload"]))
            guard case .object(var params) = try HandshakeHelper().params(for: challenge),
                case .object(var clientInfo)? = params["client"]
            else { throw HandshakeFailed(response: .null) }
            clientInfo["buildId"] = "abc"
            params["client"] = .object(clientInfo)
            params["traceparent"] = "00-x"
            try await client.send(RequestFrame(id: "c", method: "connect", params: .object(params)).json)
            let response = try await client.response(id: "c")
            let message = try #require(response["error"]?["message"]?.stringValue)
            #expect(message.hasPrefix("invalid connect params: "))
            #expect(message.contains("'buildId'"))
            #expect(message.contains("'traceparent'"))
            #expect(try await client.closeCode() == 1008)
            #expect(await gateway.receivedConnectParams().count == 1)
        }
    }

    @Test func firstRequestMustBeConnect() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            _ = try await client.event("connect.challenge")
            let response = try await client.request("health")
            #expect(response["error"]?["message"] == "invalid handshake: first request must be connect")
            #expect(try await client.closeCode() == 1008)

            let other = try await RawGatewayClient.connect(to: gateway.url)
            try await other.sendText("{\"type\":\"event\",\"event\":\"x\"}")
            #expect(try await other.closeCode() == 1008)
        }
    }

    @Test func browserOriginIsRefusedUnlessAllowed() async throws {
        try await withTestGateway(.init(allowedOrigins: ["https://ok.example"])) { gateway in
            let (client, response) = try await HandshakeHelper().connect(
                to: gateway.url, origin: "https://evil.example")
            #expect(response["error"]?["code"] == "INVALID_REQUEST")
            #expect(response["error"]?["details"]?["code"] == "CONTROL_UI_ORIGIN_NOT_ALLOWED")
            #expect(try await client.closeCode() == 1008)
            let (allowed, ok) = try await HandshakeHelper().connect(to: gateway.url, origin: "https://ok.example")
            #expect(ok["ok"] == true)
            await allowed.close()
        }
    }

    @Test func wrongTokenIsRefusedWithRetryHint() async throws {
        try await withTestGateway { gateway in
            var helper = HandshakeHelper()
            helper.auth = ConnectAuth(token: "wrong")
            let (client, response) = try await helper.connect(to: gateway.url)
            #expect(
                response["error"]?["message"] == "unauthorized: gateway token mismatch (provide gateway auth token)")
            #expect(
                response["error"]?["details"]
                    == [
                        "code": "AUTH_TOKEN_MISMATCH", "authReason": "token_mismatch", "canRetryWithDeviceToken": true,
                        "recommendedNextStep": "retry_with_device_token",
                    ]
            )
            #expect(try await client.closeCode() == 1008)

            helper.auth = nil
            let (missing, refused) = try await helper.connect(to: gateway.url)
            #expect(refused["error"]?["details"]?["code"] == "AUTH_TOKEN_MISSING")
            #expect(try await missing.closeCode() == 1008)
        }
    }

    @Test func passwordAuth() async throws {
        try await withTestGateway(.init(auth: .password("pw"))) { gateway in
            var helper = HandshakeHelper()
            helper.auth = ConnectAuth(password: "nope")
            let (refused, response) = try await helper.connect(to: gateway.url)
            #expect(response["error"]?["details"]?["code"] == "AUTH_PASSWORD_MISMATCH")
            _ = try await refused.closeCode()
            helper.auth = ConnectAuth(password: "pw")
            let (client, _) = try await helper.open(gateway.url)
            await client.close()
        }
    }

    @Test func tamperedSignatureAndForeignNonceAreRefused() async throws {
        try await withTestGateway { gateway in
            let helper = HandshakeHelper()
            let client = try await RawGatewayClient.connect(to: gateway.url)
            let challenge = try #require(ConnectChallenge(json: try await client.event("connect.challenge")["payload"]))
            guard case .object(var params) = try helper.params(for: challenge) else {
                throw HandshakeFailed(response: .null)
            }
            var scopes = params["scopes"]?.arrayValue ?? []
            scopes.append("operator.admin")
            params["scopes"] = .array(scopes)
            try await client.send(RequestFrame(id: "c", method: "connect", params: .object(params)).json)
            let response = try await client.response(id: "c")
            #expect(
                response["error"]?["details"] == [
                    "code": "DEVICE_AUTH_SIGNATURE_INVALID", "reason": "device-signature",
                ]
            )
            #expect(try await client.closeCode() == 1008)

            let second = try await RawGatewayClient.connect(to: gateway.url)
            _ = try await second.event("connect.challenge")
            // Signed for the first socket's nonce: a replay on another socket.
            try await second.send(
                RequestFrame(id: "c", method: "connect", params: try helper.params(for: challenge)).json)
            let nonceResponse = try await second.response(id: "c")
            #expect(nonceResponse["error"]?["details"]?["code"] == "DEVICE_AUTH_NONCE_MISMATCH")
        }
    }

    @Test func pairingRequiredThenApproved() async throws {
        try await withTestGateway(.init(pairing: .requireApproval)) { gateway in
            let helper = HandshakeHelper()
            let (first, refused) = try await helper.connect(to: gateway.url)
            #expect(refused["error"]?["code"] == "NOT_PAIRED")
            #expect(refused["error"]?["message"] == "pairing required")
            #expect(refused["error"]?["details"]?["code"] == "PAIRING_REQUIRED")
            #expect(refused["error"]?["details"]?["reason"] == "not-paired")
            let requestId = try #require(refused["error"]?["details"]?["requestId"]?.stringValue)
            #expect(try await first.closeCode() == 1008)

            let (second, again) = try await helper.connect(to: gateway.url)
            #expect(again["error"]?["details"]?["requestId"]?.stringValue == requestId)
            _ = try await second.closeCode()
            #expect(await gateway.pendingPairingRequests() == [requestId])

            await gateway.approvePairing(requestId: requestId)
            #expect(await gateway.pendingPairingRequests().isEmpty)
            let (client, hello) = try await helper.open(gateway.url)
            #expect(hello["auth"]?["deviceToken"] != nil)
            await client.close()

            var upgraded = helper
            upgraded.client.platform = "linux 6.1"
            let (third, metadata) = try await upgraded.connect(to: gateway.url)
            #expect(metadata["error"]?["details"]?["reason"] == "metadata-upgrade")
            _ = try await third.closeCode()
        }
    }

    @Test func pairingRequestIsBroadcastToPairingOperators() async throws {
        try await withTestGateway(.init(pairing: .requireApproval)) { gateway in
            // Device-less operators lose their scopes, so the approver pairs first.
            var approver = HandshakeHelper()
            approver.scopes = [OperatorScope.read, OperatorScope.pairing]
            let (pending, refused) = try await approver.connect(to: gateway.url)
            _ = try await pending.closeCode()
            await gateway.approvePairing(requestId: refused["error"]?["details"]?["requestId"]?.stringValue ?? "")
            let (admin, _) = try await approver.open(gateway.url)

            let (newcomer, _) = try await HandshakeHelper().connect(to: gateway.url)
            let requested = try await admin.event("device.pair.requested")
            #expect(requested["seq"] != nil)
            let requestId = try #require(requested["payload"]?["requestId"]?.stringValue)
            _ = try await newcomer.closeCode()
            let approved = try await admin.request("device.pair.approve", params: ["requestId": .string(requestId)])
            #expect(approved["ok"] == true)
            _ = try await admin.anyFrame("device.pair.resolved") { $0["event"] == "device.pair.resolved" }
            await admin.close()
        }
    }

    @Test func handshakeTimeoutClosesWith1000() async throws {
        // Seconds, not milliseconds: the client must have read its 101 before the gateway gives up on
        // it, which takes a while on a loaded machine (websocket-kit never reports a close before that).
        try await withTestGateway(.init(handshakeTimeoutMs: 3_000)) { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            #expect(try await client.closeCode(timeout: .seconds(20)) == 1000)
        }
    }

    @Test func oversizedPreauthFrameClosesWith1009() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            _ = try await client.event("connect.challenge")
            try await client.sendText(String(repeating: "x", count: 70_000))
            #expect(try await client.closeCode() == 1009)
        }
    }

    @Test func binaryConnectFramesAreAccepted() async throws {
        try await withTestGateway { gateway in
            let client = try await RawGatewayClient.connect(to: gateway.url)
            let challenge = try #require(ConnectChallenge(json: try await client.event("connect.challenge")["payload"]))
            try await client.sendBinary(
                RequestFrame(id: "c", method: "connect", params: try HandshakeHelper().params(for: challenge)).json
            )
            #expect(try await client.response(id: "c")["ok"] == true)
            await client.close()
        }
    }
}
