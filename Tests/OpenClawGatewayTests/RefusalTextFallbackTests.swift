import OpenClawProtocol
import Testing

@testable import OpenClawGateway

/// Each text pattern of the one fallback, row by row with the dialect it is for, and proof that the
/// classifier reads text only when a refusal carries no detail code.
@Suite("Refusal text fallback")
struct RefusalTextFallbackTests {
    @Test func pairingRequiredWithoutDetailCode() {
        let table: [(ErrorShape, Bool)] = [
            // Gateways before detail codes, and copies of upstream's message.
            (ErrorShape(code: .notPaired, message: "pairing required"), true),
            (ErrorShape(code: .notPaired, message: "Pairing Required"), true),
            // Another code, or another NOT_PAIRED refusal.
            (ErrorShape(code: .invalidRequest, message: "pairing required"), false),
            (ErrorShape(code: .notPaired, message: "device identity required"), false),
        ]
        for (error, expected) in table {
            #expect(RefusalTextFallback.isPairingRequired(error) == expected, "\(error)")
        }
    }

    @Test func protocolMismatchWithoutDetailCode() {
        let table: [(ErrorShape, Bool)] = [
            // v3: details carry only `expectedProtocol`.
            (ErrorShape(code: .invalidRequest, message: "protocol mismatch", details: ["expectedProtocol": 3]), true),
            // Early v4 builds and third-party gateways, any case.
            (ErrorShape(code: .invalidRequest, message: "Protocol mismatch (expected 4)"), true),
            (ErrorShape(code: .invalidRequest, message: "unauthorized: gateway token mismatch"), false),
            (ErrorShape(code: .invalidRequest, message: "invalid connect params: protocol"), false),
        ]
        for (error, expected) in table {
            #expect(RefusalTextFallback.isProtocolMismatch(error) == expected, "\(error)")
        }
    }

    @Test func authRefusalWithoutDetailCode() {
        let table: [(ErrorShape, Bool)] = [
            // Upstream's `formatGatewayAuthFailureMessage` texts, from gateways before detail codes.
            (ErrorShape(code: .invalidRequest, message: "unauthorized: gateway token mismatch (provide token)"), true),
            (ErrorShape(code: .invalidRequest, message: "unauthorized: gateway password missing"), true),
            (ErrorShape(code: .invalidRequest, message: "Unauthorized"), true),
            (ErrorShape(code: .invalidRequest, message: "pairing required"), false),
            (ErrorShape(code: .invalidRequest, message: "request unauthorized"), false),
        ]
        for (error, expected) in table {
            #expect(RefusalTextFallback.isAuthRefusal(error) == expected, "\(error)")
        }
    }

    @Test func pairingRequestIdInText() {
        let table: [(String, String?)] = [
            // The ` (requestId: <id>)` ending of v4's pairing close reason.
            ("pairing required (requestId: 6f1c-22)", "6f1c-22"),
            ("pairing required (requestId:abc)", "abc"),
            ("pairing required (requestId: abc more)", "abc"),
            ("pairing required", nil),
            ("pairing required (requestId: )", nil),
        ]
        for (text, expected) in table {
            #expect(RefusalTextFallback.requestId(inReason: text) == expected, "\(text)")
        }
    }

    @Test func missingScopeInText() {
        let table: [(ErrorShape, String?)] = [
            // v3 (all releases): INVALID_REQUEST.
            (ErrorShape(code: .invalidRequest, message: "missing scope: operator.admin"), "operator.admin"),
            // v4 before `MISSING_SCOPE` details: FORBIDDEN, any case, spaces skipped.
            (ErrorShape(code: .forbidden, message: "Missing Scope:  operator.read"), "operator.read"),
            (ErrorShape(code: .forbidden, message: "denied (missing scope: operator.write)"), "operator.write"),
            // Other codes and texts are not scope refusals.
            (ErrorShape(code: .unavailable, message: "missing scope: operator.read"), nil),
            (ErrorShape(code: .invalidRequest, message: "unknown method: x"), nil),
            (ErrorShape(code: .invalidRequest, message: "missing scope:"), nil),
        ]
        for (error, expected) in table {
            #expect(RefusalTextFallback.missingScope(in: error) == expected, "\(error)")
        }
    }

    @Test func aDetailCodeWinsOverTheText() {
        // A code the client does not know is the generic message, whatever the text says.
        let unknown = ErrorShape(code: .notPaired, message: "pairing required", details: ["code": "SOMETHING_NEW"])
        #expect(GatewayErrorClassifier.connectFailure(unknown) == .requestFailed(method: "connect", error: unknown))
        let unknownAuth = ErrorShape(
            code: .invalidRequest, message: "unauthorized: x", details: ["code": "SOMETHING_NEW"])
        #expect(
            GatewayErrorClassifier.connectFailure(unknownAuth) == .requestFailed(method: "connect", error: unknownAuth))

        // Families: a code added later is still an auth or device-proof refusal, whatever the text.
        let newAuth = ErrorShape(code: .invalidRequest, message: "nope", details: ["code": "AUTH_SOMETHING_NEW"])
        #expect(
            GatewayErrorClassifier.connectFailure(newAuth)
                == .authFailed(GatewayError.AuthFailure(code: "AUTH_SOMETHING_NEW", message: "nope")))
        let newDevice = ErrorShape(code: .invalidRequest, message: "nope", details: ["code": "DEVICE_AUTH_NEW"])
        #expect(
            GatewayErrorClassifier.connectFailure(newDevice)
                == .deviceIdentityRejected(code: "DEVICE_AUTH_NEW", message: "nope"))

        // The typed scope wins over the text's.
        let typed = ErrorShape(
            code: .forbidden, message: "missing scope: operator.write",
            details: ["code": "MISSING_SCOPE", "missingScope": "operator.read"])
        #expect(
            GatewayErrorClassifier.requestFailure(method: "chat.send", error: typed)
                == .missingScope(scope: "operator.read", method: "chat.send"))
    }

    @Test func textOnlyRefusalsAreStillClassified() {
        #expect(
            GatewayErrorClassifier.connectFailure(ErrorShape(code: .notPaired, message: "pairing required"))
                == .pairingRequired(GatewayError.PairingRequest(requestId: nil, reason: nil)))
        #expect(
            GatewayErrorClassifier.connectFailure(ErrorShape(code: .invalidRequest, message: "protocol mismatch"))
                == .protocolMismatch(expected: nil))
        let auth = ErrorShape(code: .invalidRequest, message: "unauthorized: gateway token mismatch")
        #expect(
            GatewayErrorClassifier.connectFailure(auth)
                == .authFailed(GatewayError.AuthFailure(code: nil, message: auth.message)))
        #expect(
            GatewayErrorClassifier.requestFailure(
                method: "chat.send", error: ErrorShape(code: .invalidRequest, message: "missing scope: operator.write"))
                == .missingScope(scope: "operator.write", method: "chat.send"))
    }
}
