import Testing

@testable import OpenClawProtocol

/// What older upstream releases, forks and third-party gateways send, and what the client reads from it.
@Suite("Gateway variations")
struct GatewayVariationsTests {
    // MARK: connect.challenge

    @Test func aChallengeWithoutTsIsSignedWithTheLocalClock() throws {
        let challenge = try #require(ConnectChallenge(json: ["nonce": "abc"]))
        #expect(challenge.ts == nil)
        #expect(challenge.signingTimeMs(localNowMs: 1_800_000_000_000) == 1_800_000_000_000)
        // With a ts, the gateway's clock is signed whatever ours says.
        let timed = try #require(ConnectChallenge(json: ["nonce": "abc", "ts": 1_700_000_000_000]))
        #expect(timed.signingTimeMs(localNowMs: 1_800_000_000_000) == 1_700_000_000_000)
    }

    @Test func aChallengeTsInSecondsOrISOIsReadAsMilliseconds() {
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": 1_700_000_000])?.ts == 1_700_000_000_000)
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": "2023-11-14T22:13:20Z"])?.ts == 1_700_000_000_000)
        #expect(ConnectChallenge(json: ["nonce": "n", "ts": "1700000000000"])?.ts == 1_700_000_000_000)
    }

    @Test func theChallengeIsEncodedWithoutAnAbsentTs() {
        #expect(ConnectChallenge(nonce: "n", ts: nil).json == ["nonce": "n"])
    }

    // MARK: hello-ok

    @Test func aBareHelloOkUsesTheDocumentedDefaultsAndSaysWhatWasMissing() throws {
        let hello = try #require(HelloOk(json: ["type": "hello-ok", "protocol": 3]))
        #expect(hello.server.version == "unknown")
        #expect(hello.features.methods.isEmpty)
        #expect(hello.policy.maxPayload == 26_214_400)
        #expect(hello.policy.tickIntervalMs == 30_000)
        #expect(hello.snapshot.stateVersion == StateVersion(presence: 0, health: 0))
        #expect(hello.auth == nil)
        #expect(hello.notAdvertised == [.server, .features, .maxPayload, .tickInterval, .stateVersion])
        #expect(
            hello.notAdvertised.names == [
                "server", "features", "policy.maxPayload", "policy.tickIntervalMs", "snapshot.stateVersion",
            ])
    }

    @Test func helloOkWithNullsAndQuotedNumbers() throws {
        let hello = try #require(
            HelloOk(json: [
                "type": "hello-ok", "protocol": "4", "server": nil, "features": ["methods": nil],
                "policy": ["maxPayload": "1000", "tickIntervalMs": nil],
                "snapshot": ["stateVersion": ["presence": "2", "health": 3], "sessionDefaults": nil],
                "auth": ["role": "operator", "scopes": ["operator.read"], "deviceToken": nil],
            ])
        )
        #expect(hello.protocolVersion == .v4)
        #expect(hello.server.version == "unknown")
        #expect(hello.policy.maxPayload == 1000)
        #expect(hello.policy.tickIntervalMs == 30_000)
        #expect(hello.snapshot.stateVersion == StateVersion(presence: 2, health: 3))
        #expect(hello.snapshot.sessionDefaults == nil)
        #expect(hello.auth?.deviceToken == nil)
        #expect(hello.notAdvertised == [.server, .tickInterval])
    }

    @Test func aCompleteHelloOkHasNothingUnknown() throws {
        let hello = try #require(
            HelloOk(json: [
                "type": "hello-ok", "protocol": 3, "server": ["version": "2026.4.12", "connId": "c"],
                "features": ["methods": [], "events": []],
                "snapshot": ["stateVersion": ["presence": 1, "health": 1]],
                "policy": ["maxPayload": 26_214_400, "tickIntervalMs": 30_000],
            ])
        )
        #expect(hello.notAdvertised.isEmpty)
    }

    // MARK: responses that do not echo the request

    @Test func aHistoryPageWithoutSessionKeyBelongsToTheRequestedSession() throws {
        let payload: JSONValue = ["messages": [["role": "user", "content": "hi", "timestamp": 1]]]
        #expect(ChatHistoryPage(json: payload) == nil)
        let page = try #require(ChatHistoryPage(json: payload, requestedSessionKey: "main"))
        #expect(page.sessionKey == "main")
        #expect(page.sessionId == nil)
        #expect(page.messages.map(\.text) == ["hi"])
        // An echoed key wins over the requested one (the gateway may canonicalise an alias).
        let echoed = ChatHistoryPage(
            json: ["sessionKey": "agent:main:main", "messages": []], requestedSessionKey: "main")
        #expect(echoed?.sessionKey == "agent:main:main")
        // A page without messages is an empty page, not an error; null members read as absent.
        let empty = ChatHistoryPage(
            json: ["sessionId": nil, "messages": nil, "hasMore": nil], requestedSessionKey: "s")
        #expect(empty?.messages == [])
        #expect(empty?.hasMore == nil)
        #expect(ChatHistoryPage(json: "not an object", requestedSessionKey: "main") == nil)
    }

    @Test func aSendAckWithoutRunIdIsTheAckOfTheRequestedRun() {
        #expect(
            ChatSendAck(json: ["status": "started"], idempotencyKey: "k1") == ChatSendAck(runId: "k1", status: .started)
        )
        #expect(ChatSendAck(json: [:], idempotencyKey: "k1") == ChatSendAck(runId: "k1", status: .started))
        #expect(ChatSendAck(json: nil, idempotencyKey: "k1") == ChatSendAck(runId: "k1", status: .started))
        #expect(ChatSendAck(json: ["status": nil], idempotencyKey: "k1")?.status == .started)
        // The echoed run id wins; a stop command's answer is still not an ack.
        #expect(ChatSendAck(json: ["runId": "r", "status": "ok"], idempotencyKey: "k1")?.runId == "r")
        #expect(ChatSendAck(json: ["ok": true, "aborted": false, "runIds": []], idempotencyKey: "k1") == nil)
        #expect(ChatSendAck(json: ["status": "started"]) == nil)
    }

    // MARK: null, quoted numbers, timestamps

    @Test func explicitNullReadsAsAbsent() throws {
        let message = try #require(
            ChatMessage(json: [
                "role": "assistant", "content": [["type": "text", "text": "hi"]], "timestamp": nil, "ts": 5,
                "stopReason": nil, "usage": nil, "__openclaw": nil, "toolCallId": nil,
            ])
        )
        #expect(message.timestampMs == 5)
        #expect(message.stopReason == nil)
        #expect(message.usage == nil)
        #expect(message.entry == nil)
        let image = ChatContentPart(json: ["type": "image", "data": nil, "mimeType": "image/png"])
        #expect(image == .image(mimeType: "image/png", omitted: true, bytes: nil))
        let event = try #require(
            ChatEvent(json: [
                "runId": "r", "sessionKey": "main", "state": "final", "seq": nil, "message": nil, "errorMessage": nil,
            ])
        )
        #expect(event.seq == nil)
        #expect(event.message == nil)
    }

    @Test func countsAndTimestampsSentAsStrings() throws {
        let event = try #require(ChatEvent(json: ["runId": "r", "sessionKey": "main", "state": "delta", "seq": "7"]))
        #expect(event.seq == 7)
        let usage = try #require(ChatUsage(json: ["input": "12", "output": 3, "totalTokens": "15"]))
        #expect(usage == ChatUsage(inputTokens: 12, outputTokens: 3, totalTokens: 15))
        let row = try #require(
            SessionSummary(json: ["key": "main", "updatedAt": "2025-01-19T05:20:00.123456", "totalTokens": "40"])
        )
        #expect(row.updatedAt == 1_737_264_000_123)
        #expect(row.totalTokens == 40)
        let agent = try #require(
            AgentEvent(json: ["runId": "r", "stream": "lifecycle", "seq": "2", "ts": 1_737_264_000]))
        #expect(agent.seq == 2)
        #expect(agent.ts == 1_737_264_000_000)
        let frame = try FrameCodec.frame(from: ["type": "event", "event": "tick", "seq": "9", "payload": ["ts": "1"]])
        guard case .event(let tick) = frame else { throw FrameDecodingError.notAFrame }
        #expect(tick.seq == 9)
        #expect(TickEvent(json: tick.payload)?.ts == 1)
        let shape = try #require(ErrorShape(json: ["code": "UNAVAILABLE", "message": "m", "retryAfterMs": "500"]))
        #expect(shape.retryAfterMs == 500)
    }

    @Test(arguments: [
        (JSONValue.int(1_737_264_000_123), 1_737_264_000_123),
        (.int(1_737_264_000), 1_737_264_000_000),
        (.double(1_737_264_000.5), 1_737_264_000_500),
        (.string("1737264000"), 1_737_264_000_000),
        (.string("1737264000.25"), 1_737_264_000_250),
        (.string("2025-01-19T05:20:00Z"), 1_737_264_000_000),
        (.string("2025-01-19T05:20:00"), 1_737_264_000_000),
        (.string("2025-01-19T05:20:00.123456Z"), 1_737_264_000_123),
        (.string("2025-01-19T06:20:00.123456+01:00"), 1_737_264_000_123),
        (.int(42), 42),
    ])
    func messageTimestampsInEveryCommonForm(value: JSONValue, expected: Int) throws {
        let message = try #require(ChatMessage(json: ["role": "user", "content": "x", "timestamp": value]))
        #expect(message.timestampMs == expected)
    }

    @Test func lenientIntegersRejectWhatIsNotANumber() {
        #expect(JSONValue.string(" 12 ").lenientIntValue == 12)
        #expect(JSONValue.string("12a").lenientIntValue == nil)
        #expect(JSONValue.string("").lenientIntValue == nil)
        #expect(JSONValue.string("99999999999999999999999").lenientIntValue == nil)
        #expect(JSONValue.double(3.5).lenientIntValue == nil)
        #expect(JSONValue.bool(true).lenientIntValue == nil)
    }
}
