import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The debug view's frames come from the connection's trace hook, redacted, and only the newest stay.
@MainActor
@Suite("Debug frames")
struct DebugFramesTests {
    static let secret = "frame-secret-token-7f3a"

    @Test func framesAreRecordedWithoutAnySecret() async throws {
        var configuration = TestGatewayConfiguration()
        configuration.auth = .token(Self.secret)
        try await withTestGateway(configuration) { gateway in
            let dependencies = AppHarness.dependencies(
                saved: try AppHarness.saved(gateway, token: Self.secret), recordsFrames: true)
            let app = AppModel(dependencies: dependencies)
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            await context.chat.session.send("use a tool")
            #expect(await waitUntil { !context.chat.isRunning && context.chat.messages.count >= 2 })

            let deviceId = try dependencies.identityStore.loadOrCreate().deviceId
            let key = DeviceTokenKey(
                gateway: try GatewayURL(parsing: gateway.url).description, deviceId: deviceId, role: "operator")
            let deviceToken = try #require(try dependencies.tokenStore.load(key)?.token)

            let frames = app.debugFrames.frames
            #expect(await waitUntil { app.debugFrames.frames.contains { $0.summary == "event chat" } })
            #expect(frames.first?.summary == "event connect.challenge")
            #expect(frames.contains { $0.summary == "req connect" && !$0.isInbound })
            #expect(frames.contains { $0.summary == "req chat.send" })
            #expect(frames.contains { $0.text.contains("<redacted>") })
            for frame in app.debugFrames.frames {
                #expect(!frame.text.contains(Self.secret))
                #expect(!frame.text.contains(deviceToken))
            }
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.id < $1.id })
            await app.signOut()
        }
    }

    @Test func onlyTheNewestFramesAreKept() async throws {
        // One delta per chunk (no upstream throttle), so the frame count is known.
        try await withTestGateway(TestGatewayConfiguration(deltaThrottleMs: 0)) { gateway in
            let app = AppModel(
                dependencies: AppHarness.dependencies(
                    saved: try AppHarness.saved(gateway), recordsFrames: true, frameCapacity: 5))
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            await context.chat.session.send("stream 40")
            #expect(await waitUntil { !context.chat.isRunning && context.chat.messages.count == 2 })
            // 40 chunks are 80 events: far more frames than are kept.
            #expect(await waitUntil { app.debugFrames.frames.last.map { $0.id > 80 } ?? false })
            let frames = app.debugFrames.frames
            #expect(frames.count == 5)
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.id < $1.id })

            app.debugFrames.clear()
            #expect(app.debugFrames.frames.isEmpty)
            await app.signOut()
        }
    }

    @Test func recordingOffLeavesTheConnectionWithoutAHook() async throws {
        let frames = DebugFramesModel(capacity: 10, isEnabled: false)
        #expect(frames.sink == nil)
        #expect(frames.frames.isEmpty)
    }
}
