import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The root model against a real test gateway over 127.0.0.1.
@MainActor
@Suite("App model")
struct AppModelTests {
    @Test func withoutASavedGatewayTheAppShowsOnboarding() async {
        let app = AppModel(dependencies: AppHarness.dependencies())
        #expect(app.screen == .launching)
        await app.launch()
        #expect(app.screen == .onboarding)
        #expect(app.context == nil)
        #expect(app.settings.urlText.isEmpty)
    }

    @Test func onboardingSavesTheGatewayAndConnectsAsTheIOSApp() async throws {
        try await withTestGateway { gateway in
            let dependencies = AppHarness.dependencies()
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            app.settings.urlText = gateway.url
            app.settings.credentialKind = .token
            app.settings.secret = " test-token "
            await app.saveSettings()

            let context = try #require(await AppHarness.connectedChat(app))
            #expect(try dependencies.credentials.load() == AppHarness.saved(gateway))
            let client = try #require(await gateway.connectClients().last)
            #expect(client["id"] == "openclaw-ios")
            #expect(client["mode"] == "ui")
            #expect(client["platform"] == "ios")
            #expect(client["deviceFamily"] == "iPhone")
            #expect(client["displayName"] == "Test iPhone")

            await context.chat.session.send("hello from the app")
            let replied = await waitUntil {
                context.chat.messages.contains { $0.role == .assistant && $0.status == .complete }
            }
            #expect(replied)
            await app.signOut()
        }
    }

    @Test func anInvalidAddressIsNotSaved() async throws {
        let dependencies = AppHarness.dependencies()
        let app = AppModel(dependencies: dependencies)
        await app.launch()
        app.settings.urlText = "ftp://mini.local"
        await app.saveSettings()
        #expect(app.settings.saveError?.contains("not a gateway address") == true)
        #expect(try dependencies.credentials.load() == nil)
        #expect(app.screen == .onboarding)
    }

    @Test func aSavedGatewayOpensTheChatAtLaunchAndSignOutForgetsIt() async throws {
        try await withTestGateway { gateway in
            let dependencies = AppHarness.dependencies(saved: try AppHarness.saved(gateway))
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            #expect(app.settings.urlText == gateway.url)
            #expect(app.settings.secret == "test-token")

            await app.signOut()
            #expect(app.screen == .onboarding)
            #expect(app.context == nil)
            #expect(try dependencies.credentials.load() == nil)
            #expect(app.settings.urlText.isEmpty)
            #expect(await context.connection.state.isConnected == false)
        }
    }

    @Test func returningToTheForegroundReconnectsOnlyAnUnhealthyConnection() async throws {
        try await withTestGateway { gateway in
            // Automatic reconnecting off: only the foreground brings the connection back here.
            let app = AppModel(
                dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway), reconnect: nil))
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            let connectsBefore = await gateway.receivedConnectParams().count

            await app.scenePhaseChanged(active: false)
            await app.scenePhaseChanged(active: true)
            #expect(await gateway.receivedConnectParams().count == connectsBefore, "a healthy connection is left alone")

            await gateway.dropAllConnections()
            let dropped = await waitUntil { !context.chat.connectionState.isConnected }
            #expect(dropped)
            #expect(app.context?.chatScreen.banner?.action == .reconnect)

            await app.scenePhaseChanged(active: true)
            #expect(await gateway.receivedConnectParams().count == connectsBefore + 1)
            let back = await waitUntil { context.chat.connectionState.isConnected }
            #expect(back)
            #expect(app.context?.chatScreen.banner == nil)
            await app.signOut()
        }
    }

    @Test func returningToTheForegroundCutsAReconnectWaitShort() async throws {
        try await withTestGateway { gateway in
            let slow = ReconnectPolicy(initialDelay: .seconds(60), jitter: .none)
            let app = AppModel(
                dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway), reconnect: slow))
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            let connectsBefore = await gateway.receivedConnectParams().count

            await gateway.dropAllConnections()
            let waiting = await waitUntil { context.chat.connectionState.reconnectStatus != nil }
            #expect(waiting)
            let banner = try #require(app.context?.chatScreen.banner)
            #expect(banner.message.hasPrefix("Disconnected: the connection dropped. Reconnecting in "))
            #expect(banner.action == .reconnect)

            await app.scenePhaseChanged(active: true)
            #expect(await waitUntil { context.chat.connectionState.isConnected })
            #expect(await gateway.receivedConnectParams().count == connectsBefore + 1)
            await app.signOut()
        }
    }

    @Test func aRefusedTokenLeadsToSettings() async throws {
        try await withTestGateway { gateway in
            let app = AppModel(
                dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway, token: "wrong")))
            await app.launch()
            #expect(app.screen == .chat)
            let refused = await waitUntil {
                if case .failed(.authFailed) = app.context?.chat.connectionState { return true }
                return false
            }
            #expect(refused)
            let banner = try #require(app.context?.chatScreen.banner)
            #expect(banner.action == .openSettings)
            #expect(banner.message.contains("refused"))
            #expect(!banner.message.contains("wrong") && banner.detail?.contains("wrong") != true)

            let screen = try #require(app.context?.chatScreen)
            #expect(screen.isShowingAlert)
            #expect(screen.currentAlert?.message == banner.message)
            screen.isShowingAlert = false
            #expect(screen.currentAlert == nil && screen.chat.alerts.isEmpty)

            app.editSettings()
            app.settings.secret = "test-token"
            await app.saveSettings()
            #expect(await AppHarness.connectedChat(app) != nil)
            await app.signOut()
        }
    }
}
