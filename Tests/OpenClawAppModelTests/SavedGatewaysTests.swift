import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// Several gateways in the app: the list's rules, and switching and removing against real gateways.
@MainActor
@Suite("App: several gateways")
struct SavedGatewaysTests {
    static func url(_ text: String) throws -> GatewayURL { try GatewayURL(parsing: text) }

    @Test func theListKeepsOneEntryPerAddressAndAlwaysACurrentOneWhileAnyIsLeft() throws {
        let home = try Self.url("ws://mini.local:18789")
        let work = try Self.url("wss://gw.example.com")
        var list = SavedGateways()
        #expect(list.current == nil)
        list.save(SavedGateway(url: home, credential: .token("a")))
        list.save(SavedGateway(url: work, credential: .password("b")))
        #expect(list.currentURL == work)
        // The same address again is the same gateway with a new secret, not a second entry.
        list.save(SavedGateway(url: home, credential: .token("rotated")))
        #expect(list.entries.map(\.url) == [home, work])
        #expect(list.current?.credential == .token("rotated"))
        let selected = list.select(work)
        let elsewhere = list.select(try Self.url("ws://elsewhere:1"))
        #expect(selected && !elsewhere)
        #expect(list.currentURL == work)
        list.remove(work)
        #expect(list.currentURL == home)
        list.remove(home)
        #expect(list.current == nil && list.entries.isEmpty)
        // A current address that is not in the list falls back to the first entry.
        let stray = SavedGateways([SavedGateway(url: home, credential: .none)], currentURL: work)
        #expect(stray.currentURL == home)
    }

    @Test func switchingOpensTheOtherGatewaysChatAndRemovingTheCurrentOneOpensTheNext() async throws {
        let home = try await TestGateway.start()
        let work = try await TestGateway.start()
        defer {
            Task {
                await home.stop()
                await work.stop()
            }
        }
        let homeURL = try Self.url(home.url)
        let workURL = try Self.url(work.url)
        let dependencies = AppHarness.dependencies()
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        for gateway in [home, work] {
            app.editSettings()
            app.settings.urlText = gateway.url
            app.settings.credentialKind = .token
            app.settings.secret = "test-token"
            #expect(await app.saveSettings())
        }
        let onWork = try #require(await AppHarness.connectedChat(app))
        #expect(onWork.connection.configuration.url == workURL)
        #expect(app.gateways.entries.map(\.url) == [homeURL, workURL])
        await onWork.chat.session.send("to work")

        await app.switchGateway(to: homeURL)
        let onHome = try #require(await AppHarness.connectedChat(app))
        #expect(onHome.connection.configuration.url == homeURL)
        #expect(app.settings.urlText == home.url)
        #expect(await onWork.connection.state.isConnected == false)
        #expect(try dependencies.credentials.load()?.url == homeURL, "the switch survives a relaunch")
        #expect(await work.sentUserMessages(sessionKey: "main") == ["to work"])
        #expect(await home.sentUserMessages(sessionKey: "main").isEmpty)

        // Removing another gateway leaves the conversation alone.
        await app.removeGateway(workURL)
        #expect(app.context === onHome)
        #expect(app.gateways.entries.map(\.url) == [homeURL])

        // Removing the current one: back on work after adding it again, then onboarding when none is left.
        app.editSettings()
        app.settings.urlText = work.url
        app.settings.secret = "test-token"
        #expect(await app.saveSettings())
        await app.removeGateway(workURL)
        let back = try #require(await AppHarness.connectedChat(app))
        #expect(back.connection.configuration.url == homeURL)
        await app.signOut()
        #expect(app.screen == .onboarding)
        #expect(app.gateways.entries.isEmpty)
        #expect(try dependencies.credentials.load() == nil)
    }
}
