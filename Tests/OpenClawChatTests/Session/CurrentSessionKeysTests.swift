import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// What follows the person's session beside the chat (the approvals audience) reads it from this stream.
@MainActor
@Suite("Chat session: the current session key as a stream")
struct CurrentSessionKeysTests {
    @Test func theKeyComesNowAndAfterEachSwitchOnce() async throws {
        try await ChatHarness.withViewModel(TestGatewayConfiguration()) { fixture in
            let session = fixture.viewModel
            var keys = session.currentSessionKeys().makeAsyncIterator()
            #expect(await keys.next() == session.currentSessionKey)
            await session.switchSession(to: "agent:main:work")
            #expect(await keys.next() == "agent:main:work")
            // A change of another kind (a send) repeats nothing; the next key is the next switch's.
            await session.send("hello")
            await session.switchSession(to: "agent:main:play")
            #expect(await keys.next() == "agent:main:play")
        }
    }
}
