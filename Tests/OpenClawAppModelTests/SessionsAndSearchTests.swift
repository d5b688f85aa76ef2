import OpenClawAppModel
import OpenClawChat
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import OpenClawTestSupport
import Synchronization
import Testing

/// A store that counts searches, to see the debounce at work.
private actor CountingStore: ChatStore {
    let base = InMemoryChatStore()
    private(set) var searches: [String] = []

    func latestMessages(gateway: String, sessionKey: String, limit: Int) async -> [StoredMessage] {
        await base.latestMessages(gateway: gateway, sessionKey: sessionKey, limit: limit)
    }
    func record(_ messages: [StoredMessage], gateway: String, sessionKey: String) async {
        await base.record(messages, gateway: gateway, sessionKey: sessionKey)
    }
    func search(_ query: String, gateway: String?, limit: Int) async -> [SearchHit] {
        searches.append(query)
        return await base.search(query, gateway: gateway, limit: limit)
    }
    func enqueue(_ message: OutboxMessage) async { await base.enqueue(message) }
    func update(_ message: OutboxMessage) async { await base.update(message) }
    func removeFromOutbox(id: String, gateway: String) async { await base.removeFromOutbox(id: id, gateway: gateway) }
    func outbox(gateway: String) async -> [OutboxMessage] { await base.outbox(gateway: gateway) }
}

@MainActor
@Suite("Sessions and search")
struct SessionsAndSearchTests {
    static let work = "agent:main:work"

    @Test func theSessionListMarksTheCurrentSessionAndSwitches() async throws {
        try await withTestGateway { gateway in
            let app = AppModel(dependencies: AppHarness.dependencies(saved: try AppHarness.saved(gateway)))
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            let sessions = context.sessions
            #expect(sessions.rows.first?.isCurrent == true)

            await context.chat.session.send("a note for main")
            #expect(await waitUntil { !context.chat.isRunning && context.chat.messages.count == 2 })
            await sessions.select(Self.work)
            #expect(context.chat.currentSessionKey == Self.work)
            #expect(context.chat.messages.isEmpty)
            #expect(sessions.rows.first { $0.isCurrent }?.key == Self.work, "listed before the gateway stores it")
            await context.chat.session.send("a note for work")
            #expect(await waitUntil { !context.chat.isRunning && context.chat.messages.count == 2 })

            await sessions.refresh()
            #expect(sessions.isRefreshing == false)
            let rows = sessions.rows
            #expect(Set(rows.map(\.key)).isSuperset(of: ["agent:main:main", Self.work]))
            #expect(rows.filter(\.isCurrent).map(\.key) == [Self.work])

            // Choosing main under either of its names switches once and then stays.
            await sessions.select("agent:main:main")
            #expect(context.chat.currentSessionKey == "agent:main:main")
            #expect(
                await waitUntil { context.chat.messages.map(\.text).first == "a note for main" },
                "shows \(context.chat.messages.map(\.text))")
            await sessions.select("main")
            #expect(context.chat.currentSessionKey == "agent:main:main")
            await app.signOut()
        }
    }

    @Test func searchWaitsForAPauseInTypingAndOpensTheResult() async throws {
        try await withTestGateway { gateway in
            let store = CountingStore()
            let sleeper = ManualSleeper()
            let app = AppModel(
                dependencies: AppHarness.dependencies(
                    saved: try AppHarness.saved(gateway), chatStore: store, sleep: sleeper.sleep))
            await app.launch()
            let context = try #require(await AppHarness.connectedChat(app))
            await context.chat.session.send("where is the pelican")
            // Confirmed by history, hence recorded in the store.
            #expect(
                await waitUntil {
                    !context.chat.isRunning && context.chat.messages.count == 2
                        && context.chat.messages.allSatisfy { $0.source == .history }
                })
            let question = try #require(context.chat.messages.first)
            await context.chat.session.switchSession(to: Self.work)

            let search = context.search
            for text in ["p", "pe", "peli", "pelican"] { search.query = text }
            #expect(search.isSearching)
            #expect(await waitUntil { sleeper.waiting == 1 })
            #expect(sleeper.requested == Array(repeating: .milliseconds(250), count: 4))
            #expect(sleeper.advance())
            #expect(await waitUntil { !search.isSearching })
            #expect(await store.searches == ["pelican"])
            #expect(search.showsNoResults == false)
            let result = try #require(search.results.first { $0.messageID == question.id })
            #expect(result.sessionKey == "main")
            #expect(result.parts.map(\.text).joined().contains("pelican"))

            await search.select(result)
            #expect(context.chat.currentSessionKey == "main")
            #expect(context.chatScreen.highlightedRowID == question.id)
            #expect(context.chatScreen.scrollRequest?.rowID == question.id)
            #expect(context.chatScreen.scrollRequest?.toBottom == false)

            search.query = "zebra"
            #expect(await waitUntil { sleeper.waiting == 1 })
            #expect(sleeper.advance())
            #expect(await waitUntil { search.showsNoResults })
            search.query = "  "
            #expect(search.results.isEmpty && !search.isSearching && !search.showsNoResults)
            #expect(await store.searches == ["pelican", "zebra"])
            await app.signOut()
        }
    }
}
