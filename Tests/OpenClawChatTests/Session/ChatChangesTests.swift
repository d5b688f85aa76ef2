import Observation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawChat

/// The headless session tells its consumers what changed, typed by kind, without their polling: the
/// terminal, the one-shot commands and the SwiftUI adapter all follow it this way.
@MainActor
@Suite("Chat session: typed changes")
struct ChatChangesTests {
    private static func offlineSession() throws -> ChatSession {
        let configuration = GatewayConnectionConfiguration(
            url: try GatewayURL(parsing: "ws://127.0.0.1:9"), credential: .token("t"), client: ChatHarness.client)
        let connection = GatewayConnection(
            configuration: configuration,
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore())
        return ChatSession(client: ChatClient(connection: connection), now: { 1_000 }, makeID: { RequestID.make() })
    }

    @Test func changesMadeBeforeTheConsumerLooksAreAllInItsNextElement() async throws {
        let session = try Self.offlineSession()
        var changes = session.changes().makeAsyncIterator()
        // Three kinds changed in one turn, the transcript many times over: one element says all of it.
        for index in 0..<500 {
            session.transcript.apply(.send(LocalSend(id: "m\(index)", text: "x", timestampMs: index)))
        }
        session.thinkingLevel = .high
        session.connectionState = .connecting
        let first = await changes.next()
        #expect(first == [.transcript, .settings, .connection])
        // Nothing more is pending: the next wait ends only with the next change.
        session.sessions = [SessionSummary(key: "agent:main:work")]
        #expect(await changes.next() == .sessions)
    }

    @Test func aConsumerWakesOnlyForTheKindsItFollows() async throws {
        let session = try Self.offlineSession()
        var connection = session.changes(of: .connection).makeAsyncIterator()
        session.transcript.apply(.send(LocalSend(id: "a", text: "x", timestampMs: 1)))
        _ = session.alertLog.raise(message: "m", nextStep: nil, cause: .storeFailed)
        #expect(await connection.next(timeout: .milliseconds(50)) == [], "no wake-up for kinds it does not follow")
        session.connectionState = .connecting
        #expect(await connection.next() == .connection)
    }

    @Test func aChangeBetweenTwoWaitsIsNotLost() async throws {
        let session = try Self.offlineSession()
        var changes = session.changes(of: .transcript).makeAsyncIterator()
        session.transcript.apply(.send(LocalSend(id: "a", text: "x", timestampMs: 1)))
        #expect(await changes.next() == .transcript)
        // Changed while the consumer was busy drawing (not waiting): the next wait returns at once.
        session.transcript.apply(.send(LocalSend(id: "b", text: "y", timestampMs: 2)))
        #expect(await changes.next(timeout: .seconds(30)) == .transcript)
    }

    @Test func theStreamEndsWithTheSession() async throws {
        var session: ChatSession? = try Self.offlineSession()
        let stream = try #require(session).changes()
        let consumer = Task { @MainActor in
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        session = nil
        #expect(await consumer.value == 0)
    }

    @Test func aStreamedReplyReachesAChangeConsumerDeltaByDelta() async throws {
        let agent = ScriptedAgent(chunkSize: 6, chunkDelayMs: 30)
        try await ChatHarness.withViewModel(GatewayFlavor.v4WithoutMessage.configuration(agent: agent)) { fixture in
            let session = fixture.viewModel
            var changes = session.changes(of: .transcript).makeAsyncIterator()
            let id = await session.send("How is the harbour?")
            var texts: [String] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while session.transcript.outcome(ofRun: id) == nil, ContinuousClock.now < deadline {
                guard await changes.next() != nil else { break }
                if let text = session.runningReply?.text, !text.isEmpty, texts.last != text { texts.append(text) }
            }
            #expect(session.transcript.outcome(ofRun: id) == .completed)
            #expect(texts.count >= 3, "each delta is a change the consumer sees: \(texts)")
            #expect(zip(texts, texts.dropFirst()).allSatisfy { $1.hasPrefix($0) && $1.count > $0.count })
        }
    }

    @Test func theSwiftUIAdapterIsToldInTheTurnOfTheChange() async throws {
        let session = try Self.offlineSession()
        let model = ChatViewModel(session: session)
        let told = ChangeFlag()
        withObservationTracking {
            _ = model.messages
        } onChange: {
            told.set()
        }
        let connectionTold = ChangeFlag()
        withObservationTracking {
            _ = model.connectionState
        } onChange: {
            connectionTold.set()
        }
        session.transcript.apply(.send(LocalSend(id: "a", text: "x", timestampMs: 1)))
        #expect(told.isSet, "a view reading the messages is invalidated at once")
        #expect(!connectionTold.isSet, "a view reading only the connection is not")
        #expect(model.messages.map(\.id) == ["a"])
        model.composerText = "hello"
        await model.send()
        #expect(model.composerText.isEmpty)
        #expect(session.messages.map(\.text) == ["x", "hello"])
    }
}

/// Set once from an observation callback.
private final class ChangeFlag: @unchecked Sendable {
    private var value = false
    var isSet: Bool { value }
    func set() { value = true }
}
