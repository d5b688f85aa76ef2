import Foundation
import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The app's onboarding by setup code and its trust on first use for a self-signed `wss://` gateway,
/// against real test gateways (plain and TLS) over 127.0.0.1.
@MainActor
@Suite("App model: setup codes and certificate trust")
struct OnboardingTrustTests {
    @Test func aSetupCodePairsTriesItsAddressesAndSavesNoSecret() async throws {
        try await withTestGateway(TestGatewayConfiguration(pairing: .requireApproval)) { gateway in
            let dependencies = AppHarness.dependencies()
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            // Nothing listens on the first address: the next one is tried.
            let code = try await gateway.setupCode(host: "127.0.0.1", extraURLs: ["ws://127.0.0.1:1"])
            #expect(await app.pair(withSetupCode: "oc-pair://" + code.encoded))
            #expect(app.settings.setupCodeError == nil)
            let saved = try #require(try dependencies.credentials.load())
            #expect(saved.url.description == "ws://127.0.0.1:\(gateway.port)")
            #expect(saved.credential == .none, "the single-use bootstrap token is never kept")
            // The device token handed over signs in: the chat connects without any approval.
            _ = try #require(await AppHarness.connectedChat(app))
            #expect(await gateway.pendingPairingRequests().isEmpty)

            // The code is spent: using it again says so and keeps the saved gateway.
            let again = AppModel(dependencies: AppHarness.dependencies())
            #expect(await again.pair(withSetupCode: code.encoded) == false)
            #expect(again.settings.setupCodeError?.contains("openclaw qr") == true)
        }
    }

    @Test func aMalformedOrExpiredCodeSaysWhatToDo() async throws {
        let app = AppModel(dependencies: AppHarness.dependencies())
        await app.launch()
        #expect(await app.pair(withSetupCode: "oc-pair://%%%") == false)
        #expect(app.settings.setupCodeError?.contains("not an OpenClaw setup code") == true)
        let expired = SetupCode(
            urls: [try GatewayURL(parsing: "ws://127.0.0.1:1")], bootstrapToken: "spent",
            expiresAt: Date(timeIntervalSinceNow: -60))
        #expect(await app.pair(withSetupCode: expired.encoded) == false)
        #expect(app.settings.setupCodeError?.contains("expired") == true)
        #expect(app.screen == .onboarding)
    }

    @Test func aSelfSignedGatewayIsTrustedOnlyAfterThePersonSaysSo() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            var dependencies = AppHarness.dependencies()
            let pins = InMemoryTLSPinStore()
            dependencies.tlsPinStore = pins
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            app.settings.urlText = "wss://localhost:\(gateway.port)"
            app.settings.secret = "test-token"
            await app.saveSettings()

            // First use: nothing connects, the certificate waits for a decision, nothing is pinned.
            #expect(await waitUntil { app.certificateTrust != nil })
            let request = try #require(app.certificateTrust)
            #expect(request.certificate.fingerprint == gateway.tlsFingerprint)
            #expect(request.fingerprintGroups.joined() == gateway.tlsFingerprint?.hex)
            #expect(try pins.all().isEmpty)
            #expect(app.context?.chat.connectionState.isConnected == false)

            await app.trustCertificate()
            _ = try #require(await AppHarness.connectedChat(app))
            #expect(try pins.pin(for: "wss://localhost:\(gateway.port)")?.fingerprint == gateway.tlsFingerprint)
            #expect(app.certificateTrust == nil)
        }
    }

    @Test func aDeclinedCertificateStaysUntrusted() async throws {
        try await withTestGateway(TestGatewayConfiguration(tls: TestGatewayTLS())) { gateway in
            var dependencies = AppHarness.dependencies()
            let pins = InMemoryTLSPinStore()
            dependencies.tlsPinStore = pins
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            app.settings.urlText = "wss://localhost:\(gateway.port)"
            app.settings.secret = "test-token"
            await app.saveSettings()
            #expect(await waitUntil { app.certificateTrust != nil })
            app.declineCertificate()
            #expect(app.certificateTrust == nil)
            let stored = try pins.all()
            #expect(stored.isEmpty)
            #expect(await gateway.connectionCount() == 0)
        }
    }

    /// A pin says a host is spoken to with TLS: a plain `ws://` address for it (a downgraded setup
    /// code, a typo) is refused before anything is sent, as the terminal refuses it.
    @Test func aPinnedHostIsNeverReachedOverPlaintext() async throws {
        try await withTestGateway(TestGatewayConfiguration()) { gateway in
            let app = try await Self.appWithAPinFor127001(formAt: gateway)
            await app.saveSettings()
            let refused = await waitUntil {
                guard case .failed(.transport(.tlsTrust(.pinnedHostOverPlaintext))) = app.context?.chat.connectionState
                else { return false }
                return true
            }
            #expect(refused, "state: \(String(describing: app.context?.chat.connectionState))")
            #expect(await gateway.connectionCount() == 0)
        }
    }

    /// The form's "Test connection" opens its sockets as the chat does: a pinned host over plain `ws://`
    /// is refused at the first step, before any socket reaches the gateway.
    @Test func theSettingsTestRefusesAPinnedHostOverPlaintextToo() async throws {
        try await withTestGateway(TestGatewayConfiguration()) { gateway in
            let app = try await Self.appWithAPinFor127001(formAt: gateway)
            await app.settings.testConnection()
            #expect(app.settings.testPassed == false, "steps: \(app.settings.steps)")
            let failed = app.settings.steps.first { $0.outcome == .failed }
            // Refused at the TLS step, before any upgrade, challenge or handshake reached the gateway.
            #expect(failed?.kind == .tls, "steps: \(app.settings.steps)")
            #expect(failed?.detail.contains("wss://127.0.0.1:443") == true, "steps: \(app.settings.steps)")
        }
    }

    /// An app whose pins hold `wss://127.0.0.1:443`, with the settings form filled for `gateway` over `ws://`.
    private static func appWithAPinFor127001(formAt gateway: TestGateway) async throws -> AppModel {
        var dependencies = AppHarness.dependencies()
        let pins = InMemoryTLSPinStore()
        try pins.save(
            TLSPin(fingerprint: try #require(TLSFingerprint(parsing: String(repeating: "ab", count: 32)))),
            for: "wss://127.0.0.1:443")
        dependencies.tlsPinStore = pins
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        app.settings.urlText = "ws://127.0.0.1:\(gateway.port)"
        app.settings.secret = "test-token"
        return app
    }
}
