import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawPresentation
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

/// The chat screen's own decisions: sending, stopping, paging back, scrolling.
@MainActor
@Suite("Chat screen")
struct ChatScreenModelTests {
    @Test func sendingShowsAStopButtonWhileTheReplyRunsAndStopsIt() async throws {
        try await withTestGateway { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let screen = try #require(await AppHarness.connectedChat(app)).chatScreen
            #expect(screen.canSend == false)
            await screen.send()
            #expect(screen.rows.isEmpty, "nothing to send")

            screen.isAtBottom = false
            screen.chat.composerText = "slow please"
            #expect(screen.canSend)
            await screen.send()
            #expect(screen.chat.composerText.isEmpty)
            let request = try #require(screen.scrollRequest, "sending jumps to the latest")
            #expect(request.toBottom)
            #expect(screen.rows.map(\.id).contains(request.rowID))
            #expect(screen.rows.first { $0.author == .user }?.text == "slow please")
            #expect(await waitUntil { screen.showsStopButton && screen.rows.last?.isStreaming == true })
            #expect(await waitUntil { screen.title == "Test Agent" }, "the agent's name once the gateway told it")

            await screen.stop()
            #expect(await waitUntil { !screen.showsStopButton })
            #expect(await waitUntil { screen.rows.last?.badge == .stopped(reason: "rpc") })
            await app.signOut()
        }
    }

    /// The photo picker's bytes and an imported file go with the next message; a photo over the
    /// gateway's limit is refused when chosen, saying its size and the limit, and never queued.
    @Test func photosAndFilesChosenInTheComposerGoWithTheNextMessage() async throws {
        let limits = TestAttachmentLimits(maxBytes: 200_000, maxImageBytes: 1000)
        try await withTestGateway(TestGatewayConfiguration(attachmentLimits: limits)) { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let screen = try #require(await AppHarness.connectedChat(app)).chatScreen
            let photo: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 500)
            let large: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 1500)

            await screen.attachments.attach(bytes: large, fileName: "large.png", declaredMimeType: "image/png")
            #expect(screen.attachments.isEmpty)
            #expect(
                screen.attachments.refusal
                    == "large.png is 1.5 kB; this gateway accepts images up to 1 kB (1000 bytes).")
            #expect(screen.canSend == false)

            await screen.attachments.attach(bytes: photo, fileName: "photo-1.jpg", declaredMimeType: "image/jpeg")
            #expect(screen.attachments.refusal == nil)
            #expect(screen.attachments.drafts.map(\.label) == ["[image: photo-1.jpg, 504 bytes]"])
            #expect(screen.attachments.drafts.first?.thumbnailBytes == photo)
            #expect(screen.canSend, "a photo needs no caption")
            await screen.send()
            #expect(screen.attachments.isEmpty)
            #expect(await waitUntil { !screen.chat.isRunning && screen.rows.count == 2 }, "sent, and answered")
            #expect(await gateway.receivedAttachments().first?.bytes == photo)
            let sent = try #require(screen.rows.first { $0.author == .user })
            #expect(sent.attachments.map(\.label) == ["[image: photo-1.jpg, 504 bytes]"])
            await app.signOut()
        }
    }

    @Test func pagingBackStopsAtTheBeginningOfEachSession() async throws {
        try await withTestGateway { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let screen = try #require(await AppHarness.connectedChat(app)).chatScreen
            #expect(screen.canLoadOlder == false, "an empty session has nothing older")
            await screen.chat.session.send("hello")
            #expect(await waitUntil { !screen.chat.isRunning && screen.rows.count == 2 })
            #expect(screen.canLoadOlder)

            await screen.loadOlder()
            #expect(screen.reachedBeginning)
            #expect(screen.canLoadOlder == false)
            #expect(screen.rows.count == 2)

            await screen.chat.session.switchSession(to: "agent:main:other")
            await screen.chat.session.send("hello other")
            #expect(await waitUntil { !screen.chat.isRunning && screen.rows.count == 2 })
            #expect(screen.reachedBeginning == false, "each session pages on its own")
            #expect(screen.canLoadOlder)
            await app.signOut()
        }
    }

    @Test func jumpToLatestScrollsToTheLastRowEachTime() async throws {
        try await withTestGateway { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let screen = try #require(await AppHarness.connectedChat(app)).chatScreen
            await screen.chat.session.send("hello")
            #expect(await waitUntil { !screen.chat.isRunning && screen.rows.count == 2 })
            let following = try #require(screen.followMarker)
            #expect(following.hasPrefix(try #require(screen.chat.messages.last?.id)))
            screen.scrolled(distanceFromBottom: 300)
            #expect(screen.isAtBottom == false)
            #expect(screen.followMarker == nil, "reading further up: nothing pulls the list down")
            #expect(screen.showsJumpToLatest)
            screen.jumpToLatest()
            let first = try #require(screen.scrollRequest)
            #expect(first.rowID == screen.rows.last?.id)
            #expect(first.toBottom)
            screen.jumpToLatest()
            #expect(screen.scrollRequest?.id != first.id)
            screen.scrolled(distanceFromBottom: 10)
            #expect(screen.isAtBottom)
            #expect(screen.showsJumpToLatest == false)
            await app.signOut()
        }
    }

    @Test func failedMessagesCanBeRetriedOrDiscarded() async throws {
        try await withTestGateway { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            let screen = context.chatScreen
            await context.connection.disconnect()
            #expect(await waitUntil { !screen.chat.connectionState.isConnected })
            screen.chat.composerText = "queued while offline"
            await screen.send()
            let queued = try #require(screen.rows.last)
            #expect(queued.badge == .queued)
            #expect(queued.actions == [.discard])
            await screen.perform(.discard, on: queued)
            #expect(screen.rows.isEmpty)
            #expect(screen.chat.outbox.isEmpty)

            screen.chat.composerText = "delivered later"
            await screen.send()
            await app.reconnect()
            #expect(await waitUntil { screen.rows.first?.badge == nil && screen.rows.count == 2 })
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["delivered later"])
            await app.signOut()
        }
    }
}
