import Testing

@testable import OpenClawProtocol

@Suite("Frames")
struct FrameCodecTests {
    let codec = FrameCodec()

    @Test func decodesAResponseWithError() throws {
        let frame = try codec.decode(
            #"{"type":"res","id":"1","ok":false,"error":{"code":"NOT_PAIRED","message":"pairing required","details":{"code":"PAIRING_REQUIRED","requestId":"r1"},"retryable":false},"extra":1}"#
        )
        guard case .response(let response) = frame else {
            Issue.record("not a response: \(frame)")
            return
        }
        #expect(response.ok == false)
        #expect(response.error?.code == .notPaired)
        #expect(response.error?.detailCode == .pairingRequired)
        #expect(response.error?.details?["requestId"] == "r1")
    }

    @Test func decodesAnEventWithSeqAndStateVersion() throws {
        let frame = try codec.decode(
            #"{"type":"event","event":"presence","payload":{"presence":[]},"seq":7,"stateVersion":{"presence":3,"health":2}}"#
        )
        #expect(
            frame
                == .event(
                    EventFrame(
                        event: "presence",
                        payload: ["presence": []],
                        seq: 7,
                        stateVersion: StateVersion(presence: 3, health: 2)
                    )
                )
        )
    }

    @Test func surfacesUnknownFrameTypesInsteadOfFailing() throws {
        let frame = try codec.decode(#"{"type":"cancel","id":"9"}"#)
        guard case .unknown(let type, _) = frame else {
            Issue.record("expected unknown, got \(frame)")
            return
        }
        #expect(type == "cancel")
    }

    @Test func rejectsWhatIsNotAFrame() {
        #expect(throws: FrameDecodingError.notAFrame) { try codec.decode("[1,2]") }
        #expect(throws: FrameDecodingError.missingField(frameType: "res", field: "id")) {
            try codec.decode(#"{"type":"res","ok":true}"#)
        }
        #expect(throws: FrameDecodingError.self) { try codec.decode("not json") }
    }

    @Test func requestFrameCarriesOnlyTheFourSchemaFields() throws {
        let text = FrameCodec.text(RequestFrame(id: "a", method: "health"))
        let json = try JSONParser().parse(text)
        #expect(Set(json.objectValue?.keys.map { $0 } ?? []) == ["type", "id", "method"])
        let withParams = try JSONParser().parse(
            FrameCodec.text(RequestFrame(id: "a", method: "chat.history", params: ["sessionKey": "main"]))
        )
        #expect(Set(withParams.objectValue?.keys.map { $0 } ?? []) == ["type", "id", "method", "params"])
    }
}

@Suite("Error shapes")
struct ErrorShapeTests {
    @Test func readsTheMissingScopeFromV4Details() {
        let error = ErrorShape(
            code: .forbidden,
            message: "missing scope: operator.write",
            details: ["code": "MISSING_SCOPE", "missingScope": "operator.write", "requiredScopes": ["operator.write"]]
        )
        #expect(error.missingScope == "operator.write")
    }

    /// The message text is read only by the gateway module's one fallback (`RefusalTextFallback`), not
    /// here: a text-only refusal names no scope in its typed view.
    @Test func leavesTheMissingScopeOfATextOnlyRefusalToTheFallback() {
        #expect(ErrorShape(code: .invalidRequest, message: "missing scope: operator.admin").missingScope == nil)
        #expect(ErrorShape(code: .forbidden, message: "Missing Scope:  operator.read").missingScope == nil)
        let otherCode = ErrorShape(
            code: .forbidden, message: "missing scope: operator.read",
            details: ["code": "SOMETHING_ELSE", "missingScope": "operator.read"])
        #expect(otherCode.missingScope == nil)
    }

    @Test func detailCodeFamiliesAreReadByPrefix() {
        let auth: [ErrorDetailCode] = [
            .authRequired, .authTokenMismatch, .authRateLimited, .authScopeMismatch, "AUTH_TAILSCALE_WHOIS_FAILED",
            "AUTH_SOMETHING_NEW",
        ]
        let deviceAuth: [ErrorDetailCode] = [
            .deviceAuthInvalid, .deviceAuthSignatureExpired, .deviceAuthNonceMismatch, "DEVICE_AUTH_SOMETHING_NEW",
        ]
        let neither: [ErrorDetailCode] = [
            .pairingRequired, .deviceIdentityRequired, .missingScope, .controlUIOriginNotAllowed,
            "AUTHENTICATED_PROFILE_UNAVAILABLE", "auth_token_mismatch",
        ]
        for code in auth { #expect(code.isAuth && !code.isDeviceAuth, "\(code)") }
        for code in deviceAuth { #expect(code.isDeviceAuth && !code.isAuth, "\(code)") }
        for code in neither { #expect(!code.isAuth && !code.isDeviceAuth, "\(code)") }
    }

    @Test func keepsUnknownCodesOpen() throws {
        let shape = try #require(ErrorShape(json: ["code": "SOMETHING_NEW", "message": "m", "retryAfterMs": 500]))
        #expect(shape.code.rawValue == "SOMETHING_NEW")
        #expect(shape.retryAfterMs == 500)
    }
}
