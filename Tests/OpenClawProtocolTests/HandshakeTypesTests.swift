import Testing

@testable import OpenClawProtocol

@Suite("Handshake types")
struct HandshakeTypesTests {
    @Test func challengeRequiresOnlyANonce() {
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": 5]) == ConnectChallenge(nonce: "n", ts: 5))
        #expect(ConnectChallenge(json: ["nonce": "  ", "ts": 5]) == nil)
        #expect(ConnectChallenge.parse(["nonce": "  ", "ts": 5]) == .failure(.missingNonce))
        #expect(ConnectChallenge.parse(["ts": 5]) == .failure(.missingNonce))
        #expect(ConnectChallenge.parse(nil) == .failure(.notAnObject))
        #expect(ConnectChallenge.parse("nonce") == .failure(.notAnObject))
        // A ts that cannot be used is dropped, not fatal: the proof is then signed with the local clock.
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": -1]) == ConnectChallenge(nonce: "n", ts: nil))
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": "soon"]) == ConnectChallenge(nonce: "n", ts: nil))
        #expect(ConnectChallenge(json: ["nonce": "n"]) == ConnectChallenge(nonce: "n", ts: nil))
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": nil]) == ConnectChallenge(nonce: "n", ts: nil))
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": "5"]) == ConnectChallenge(nonce: "n", ts: 5))
    }

    @Test func decodesAV3HelloOkWithoutAuth() throws {
        let hello = try #require(
            HelloOk(json: [
                "type": "hello-ok", "protocol": 3,
                "server": ["version": "2026.4.12", "connId": "c"],
                "features": ["methods": ["health"], "events": ["tick"]],
                "snapshot": [
                    "presence": [], "health": [:], "stateVersion": ["presence": 1, "health": 1], "uptimeMs": 5,
                    "sessionDefaults": [
                        "defaultAgentId": "main", "mainKey": "main", "mainSessionKey": "agent:main:main",
                    ],
                ],
                "canvasHostUrl": "http://x",
                "policy": ["maxPayload": 26_214_400, "maxBufferedBytes": 52_428_800, "tickIntervalMs": 30000],
            ])
        )
        #expect(hello.protocolVersion == .v3)
        #expect(hello.auth == nil)
        #expect(hello.snapshot.sessionDefaults?.mainSessionKey == "agent:main:main")
        #expect(hello.policy.tickIntervalMs == 30000)
    }

    @Test func decodesAV4HelloOkAndIgnoresUnknownKeys() throws {
        let hello = try #require(
            HelloOk(json: [
                "type": "hello-ok", "protocol": 4,
                "server": ["version": "2026.6.1", "connId": "c"],
                "features": ["methods": [], "events": [], "capabilities": ["chat-send-routing-contract"]],
                "snapshot": [
                    "presence": [], "health": [:], "stateVersion": ["presence": 1, "health": 1], "uptimeMs": 1,
                ],
                "auth": ["role": "operator", "scopes": ["operator.read"], "deviceToken": "dt", "issuedAtMs": 9],
                "policy": [
                    "maxPayload": 1000, "maxBufferedBytes": 2000, "tickIntervalMs": 15000,
                    "attachments": ["maxBytes": 20, "maxImageBytes": 6],
                ],
                "controlUiTabs": ["x"], "pluginSurfaceUrls": ["canvas": "https://c"],
            ])
        )
        #expect(hello.protocolVersion == .v4)
        #expect(hello.auth?.deviceToken == "dt")
        #expect(hello.policy.maxPayload == 1000)
        #expect(hello.policy.attachmentMaxImageBytes == 6)
        #expect(hello.features.capabilities == ["chat-send-routing-contract"])
        #expect(hello.pluginSurfaceUrls["canvas"] == "https://c")
        // No sessionDefaults: the protocol default applies.
        #expect(hello.snapshot.sessionDefaults == nil)
    }

    @Test func reportsAnUnknownProtocolNumberWithoutFailing() throws {
        let hello = try #require(HelloOk(json: ["type": "hello-ok", "protocol": 5]))
        #expect(hello.protocolVersion == nil)
        #expect(hello.protocolNumber == 5)
    }

    @Test func connectParamsLeaveOutEveryAbsentOptional() throws {
        let params = ConnectParams(
            client: ClientInfo(id: .cli, mode: .cli, version: "1.0", platform: "linux", displayName: "  ")
        )
        let json = params.json
        #expect(
            Set(json.objectValue?.keys.map { $0 } ?? []) == [
                "minProtocol", "maxProtocol", "client", "role", "scopes", "caps",
            ])
        #expect(Set(json["client"]?.objectValue?.keys.map { $0 } ?? []) == ["id", "mode", "version", "platform"])
        #expect(json["minProtocol"] == 3)
        #expect(json["maxProtocol"] == 4)
    }

    @Test func normalizesMetadataLikeTheGateway() {
        #expect(DeviceAuthPayload.normalizeMetadata("  iOS 18.4.0 ") == "ios 18.4.0")
        #expect(DeviceAuthPayload.normalizeMetadata("ÉCRAN iPhone") == "Écran iphone")
    }

    @Test func base64URLRoundTripsAndAcceptsStandardBase64() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab$c") == nil)
    }
}
