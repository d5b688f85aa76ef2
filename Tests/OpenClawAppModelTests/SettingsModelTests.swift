import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@testable import OpenClawAppModel

/// "Test connection" runs the terminal's diagnosis against a real test gateway and publishes it live.
@MainActor
@Suite("Settings")
struct SettingsModelTests {
    private func model() -> SettingsModel {
        let dependencies = AppHarness.dependencies()
        return SettingsModel { url, credential in
            dependencies.makeConnection(url: url, credential: credential, traceFrame: nil)
        }
    }

    @Test func theCredentialFollowsTheChosenKind() {
        let settings = model()
        settings.secret = "  abc  "
        #expect(settings.credential == .token("abc"))
        settings.credentialKind = .password
        #expect(settings.credential == .password("  abc  "), "passwords are taken as typed")
        settings.credentialKind = .none
        #expect(settings.credential == .none)
        settings.credentialKind = .token
        settings.secret = "   "
        #expect(settings.credential == .none)
        #expect(settings.canSave == false, "no address yet")
        settings.urlText = "mini.local"
        #expect(settings.canSave)
    }

    @Test func loadingASavedGatewayFillsTheForm() throws {
        let settings = model()
        settings.load(SavedGateway(url: try GatewayURL(parsing: "wss://gw.example.com"), credential: .password("pw")))
        #expect(settings.urlText == "wss://gw.example.com")
        #expect(settings.credentialKind == .password)
        #expect(settings.secret == "pw")
        settings.load(nil)
        #expect(settings.urlText.isEmpty && settings.secret.isEmpty && settings.credentialKind == .token)
    }

    @Test func aPassingTestListsEveryStepAsTheTerminalDoctorDoes() async throws {
        try await withTestGateway { gateway in
            let settings = model()
            settings.urlText = gateway.url
            settings.secret = "test-token"
            await settings.testConnection()
            #expect(settings.steps.map(\.kind) == DiagnosisStepKind.allCases)
            #expect(settings.steps.filter { $0.outcome == .failed }.isEmpty, "\(settings.steps)")
            #expect(settings.steps.first { $0.kind == .tls }?.outcome == .skipped)
            #expect(settings.testPassed == true)
            #expect(settings.diagnosisRows.map(\.state).contains(.running) == false)
        }
    }

    @Test func stepsAppearWhileTheTestRuns() async throws {
        try await withTestGateway { gateway in
            await gateway.setFaults(FaultPlan(challengeDelayMs: 1_500))
            let settings = model()
            settings.urlText = gateway.url
            settings.secret = "test-token"
            let test = Task { await settings.testConnection() }
            // The socket is up but the challenge is held back: the steps so far are already shown.
            let partial = await waitUntil { settings.steps.contains { $0.kind == .webSocket } }
            #expect(partial)
            #expect(settings.isTesting)
            let rows = settings.diagnosisRows
            #expect(rows.first { $0.kind == .webSocket }?.state == .passed)
            #expect(rows.first { $0.kind == .challenge }?.state == .running)
            #expect(rows.first { $0.kind == .auth }?.state == .pending)
            await test.value
            #expect(settings.testPassed == true)
        }
    }

    @Test func aWrongTokenFailsAtAuthWithAFix() async throws {
        try await withTestGateway { gateway in
            let settings = model()
            settings.urlText = gateway.url
            settings.secret = "not-the-token"
            await settings.testConnection()
            let auth = try #require(settings.steps.first { $0.kind == .auth })
            #expect(auth.outcome == .failed)
            #expect(auth.fix != nil)
            #expect(settings.steps.allSatisfy { !$0.detail.contains("not-the-token") })
            #expect(settings.testPassed == false)
            #expect(settings.steps.last?.outcome == .skipped)
        }
    }

    @Test func anAddressWithNothingListeningFailsAtTCP() async {
        let settings = model()
        settings.urlText = "ws://127.0.0.1:9"
        await settings.testConnection()
        let tcp = settings.steps.first { $0.kind == .tcp }
        #expect(tcp?.outcome == .failed)
        #expect(tcp?.fix?.contains("18789") == true)
    }
}
