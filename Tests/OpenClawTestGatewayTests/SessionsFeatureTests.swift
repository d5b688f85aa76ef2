import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// Which `sessions.patch` needs `operator.admin`, asked of `SessionsFeature` directly.
@Suite("Test gateway: sessions feature")
struct SessionsFeatureTests {
    @Test func v4LetsWritersPatchOrganizationFieldsAndTheModel() {
        #expect(!SessionsFeature.patchNeedsAdmin(fields: ["key", "label"], v4: true))
        #expect(!SessionsFeature.patchNeedsAdmin(fields: ["key", "model", "pinned", "archived"], v4: true))
        #expect(SessionsFeature.patchNeedsAdmin(fields: ["key", "thinkingLevel"], v4: true))
        #expect(SessionsFeature.patchNeedsAdmin(fields: ["key", "label", "verboseLevel"], v4: true))
    }

    @Test func v3KeepsEveryPatchForAdmins() {
        #expect(SessionsFeature.patchNeedsAdmin(fields: ["key", "label"], v4: false))
    }

    @Test func aResetKeepsTheSettingsAndStartsAFreshTranscript() {
        let sessions = SessionsFeature()
        var session = sessions.store.ensure("main", newSessionId: "s-1", nowMs: 1)
        session.label = "Kept"
        sessions.store.update(session)
        sessions.store.append(["role": "user", "content": "hi", "timestamp": 1], id: "e1", to: "main", nowMs: 1)
        let reset = sessions.resetSession("main")
        #expect(reset.sessionId != "s-1")
        #expect(reset.entries.isEmpty)
        #expect(reset.label == "Kept")
        #expect(sessions.store.session("main")?.entries.isEmpty == true)
    }
}
