import OpenClawAppModel
import OpenClawGateway
import Testing

/// Onboarding's list of gateways found on the network, over a scripted browser.
@MainActor
@Suite("App model: gateways found on the network")
struct DiscoveryModelTests {
    /// Yields the lists it is given, then stays open like a live browser.
    final class ScriptedBrowser: GatewayBrowser {
        let updates: AsyncStream<[DiscoveredGateway]>
        let continuation: AsyncStream<[DiscoveredGateway]>.Continuation

        init() {
            (updates, continuation) = AsyncStream.makeStream(of: [DiscoveredGateway].self)
        }

        func gateways() -> AsyncStream<[DiscoveredGateway]> { updates }
    }

    static func gateway(_ name: String, host: String, tls: Bool = false) -> DiscoveredGateway {
        DiscoveredGateway(
            serviceName: name, host: host, port: 18789, addresses: ["192.168.1.9"],
            txt: DiscoveryTXT(
                displayName: name.uppercased(), lanHost: "evil.example", gatewayPort: 1, usesTLS: tls,
                advertisedFingerprint: tls ? TLSFingerprint(parsing: String(repeating: "ef", count: 32)) : nil))
    }

    @Test func foundGatewaysAreListedInAStableOrderAndOneTapFillsTheAddress() async throws {
        let browser = ScriptedBrowser()
        var dependencies = AppHarness.dependencies()
        dependencies.gatewayBrowser = browser
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        #expect(app.discovery.isAvailable)
        app.discovery.start()
        #expect(app.discovery.isBrowsing)

        browser.continuation.yield([Self.gateway("mini", host: "mini.local", tls: true)])
        #expect(await waitUntil { app.discovery.found.count == 1 })
        browser.continuation.yield([
            Self.gateway("pi", host: "pi.local"), Self.gateway("mini", host: "mini.local", tls: true),
        ])
        #expect(await waitUntil { app.discovery.found.map(\.serviceName) == ["mini", "pi"] })

        let mini = app.discovery.found[0]
        app.discovery.use(mini, in: app.settings)
        // The resolved endpoint, never the TXT hints; TLS from the beacon; no secret, nothing pinned.
        #expect(app.settings.urlText == "wss://mini.local:18789")
        #expect(app.settings.secret.isEmpty)
        #expect(try dependencies.tlsPinStore.all().isEmpty)

        browser.continuation.yield([Self.gateway("pi", host: "pi.local")])
        #expect(await waitUntil { app.discovery.found.map(\.serviceName) == ["pi"] })
        app.discovery.stop()
        #expect(!app.discovery.isBrowsing)
    }

    @Test func withoutABrowserThereIsNothingToShow() async {
        let app = AppModel(dependencies: AppHarness.dependencies())
        #expect(!app.discovery.isAvailable)
        app.discovery.start()
        #expect(!app.discovery.isBrowsing)
        #expect(app.discovery.found.isEmpty)
    }
}
