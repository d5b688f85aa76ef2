import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// What follows the person's session beside the chat (the approvals audience) reads it from this stream.
@MainActor
@Suite("Chat session: the current session key as a stream")
struct CurrentSessionKeysTests {
    @Test func theKeyComesNowAndAfterEachSwitch() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            let session = fixture.viewModel
            var keys = session.currentSessionKeys().makeAsyncIterator()
            #expect(await keys.next() == session.currentSessionKey)
            await session.switchSession(to: "agent:main:work")
            #expect(await keys.next() == "agent:main:work")
            await session.switchSession(to: "agent:main:play")
            #expect(await keys.next() == "agent:main:play")
        }
    }

    /// A reader that keeps up sees each key once, whatever else the session publishes meanwhile.
    ///
    /// The reader reports each key it took, and the test waits for that report before acting again, so the
    /// reader is always back in the stream (the newest-only buffer drops nothing it would have read).
    @Test func aKeptUpReaderSeesNoKeyTwice() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            let session = fixture.viewModel
            let keys = session.currentSessionKeys()
            let (taken, tookOne) = AsyncStream.makeStream(of: String.self)
            let reader = Task {
                var seen: [String] = []
                for await key in keys {
                    seen.append(key)
                    tookOne.yield(key)
                    if key == "agent:main:play" { break }
                }
                return seen
            }
            var reports = taken.makeAsyncIterator()
            let first = session.currentSessionKey
            #expect(await reports.next() == first)
            await session.switchSession(to: "agent:main:work")
            #expect(await reports.next() == "agent:main:work")
            await session.send("hello")
            _ = await fixture.settled()
            await session.switchSession(to: "agent:main:work")
            await session.refreshHistory()
            try await Task.sleep(for: .milliseconds(100))
            await session.switchSession(to: "agent:main:play")
            #expect(await reports.next() == "agent:main:play")
            #expect(await reader.value == [first, "agent:main:work", "agent:main:play"])
        }
    }

    /// The stream ends with the chat: a follower is not kept waiting on a chat that is gone.
    @Test func theStreamEndsWhenTheChatIsGone() async throws {
        var keys: AsyncStream<String>.AsyncIterator
        do {
            let connection = GatewayConnection(
                configuration: GatewayConnectionConfiguration(
                    url: try GatewayURL(parsing: "ws://127.0.0.1:1"), client: ChatHarness.client),
                identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
                tokenStore: InMemoryDeviceTokenStore())
            let session = ChatSession(client: ChatClient(connection: connection))
            keys = session.currentSessionKeys().makeAsyncIterator()
            #expect(await keys.next() == session.currentSessionKey)
        }
        #expect(await keys.next() == nil)
    }
}
