import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// When a page is read by catching up from its cursor, and what page a catch-up answer makes, as
/// plain values.
@Suite("History sync: catch-up rule")
struct HistoryCatchUpRuleTests {
    private typealias Sync = HistorySync<Int>
    private let main = Sync.Request(sessionKey: "main", limit: 3, generation: 1)

    private func message(_ id: String, _ text: String, role: ChatRole = .user) -> ChatMessage {
        ChatMessage(role: role, content: [.text(text)], entry: ChatTranscriptEntryInfo(id: id))
    }

    private func page(_ messages: [ChatMessage], cursor: String?) -> ChatHistoryPage {
        ChatHistoryPage(sessionKey: "main", messages: messages, hasMore: false, deltaCursor: cursor)
    }

    @Test func withoutAPageOrACursorThePageIsReadWhole() {
        var sync = Sync()
        #expect(sync.read(for: main) == .tail)
        sync.tailRead(page([message("a", "one")], cursor: nil), for: main)
        #expect(sync.read(for: main) == .tail, "a gateway without cursors is read page by page")
        // An empty cursor marks no place: asking to catch up from it would cost a round trip for a reset.
        sync.tailRead(page([message("a", "one")], cursor: ""), for: main)
        #expect(sync.read(for: main) == .tail)
    }

    @Test func theSameSessionAndPageSizeCatchUpEvenOnANewSocket() {
        var sync = Sync()
        sync.tailRead(page([message("a", "one")], cursor: "c1"), for: main)
        #expect(sync.read(for: main) == .catchUp(cursor: "c1"))
        #expect(sync.read(for: .init(sessionKey: "main", limit: 3, generation: 2)) == .catchUp(cursor: "c1"))
        #expect(sync.read(for: .init(sessionKey: "work", limit: 3, generation: 1)) == .tail)
        #expect(sync.read(for: .init(sessionKey: "main", limit: 6, generation: 1)) == .tail, "loadOlder reads more")
    }

    @Test func aDeltaExtendsTheLastPageAndCutsItToThePageSize() throws {
        var sync = Sync()
        sync.tailRead(page([message("a", "one"), message("b", "two")], cursor: "c1"), for: main)
        let delta = ChatHistoryDelta(
            messages: [message("c", "three"), message("d", "four", role: .assistant)], deltaCursor: "c2")
        let answer = sync.caughtUp(.delta(delta), for: main)
        let merged = try #require(answer)
        #expect(merged.messages.map(\.text) == ["two", "three", "four"])
        #expect(merged.hasMore == true, "the oldest message was cut to keep the page size")
        #expect(merged.deltaCursor == "c2")
        #expect(sync.read(for: main) == .catchUp(cursor: "c2"), "the next read goes on from the new cursor")
    }

    @Test func aMessageTheDeltaCarriesAgainIsReplacedNotRepeated() throws {
        var sync = Sync()
        sync.tailRead(page([message("a", "one"), message("b", "partial")], cursor: "c1"), for: main)
        let delta = ChatHistoryDelta(messages: [message("b", "complete")], deltaCursor: "c2")
        let answer = sync.caughtUp(.delta(delta), for: main)
        let merged = try #require(answer)
        #expect(merged.messages.map(\.text) == ["one", "complete"])
        #expect(merged.hasMore == false)
    }

    @Test func aResetForgetsThePageSoTheWholePageIsRead() {
        var sync = Sync()
        sync.tailRead(page([message("a", "one")], cursor: "c1"), for: main)
        #expect(sync.caughtUp(.reset, for: main) == nil)
        #expect(sync.read(for: main) == .tail)
    }

    @Test func aDeltaForAnotherSessionIsNotApplied() {
        var sync = Sync()
        sync.tailRead(page([message("a", "one")], cursor: "c1"), for: main)
        let delta = ChatHistoryDelta(messages: [message("x", "elsewhere")], deltaCursor: "c9")
        #expect(sync.caughtUp(.delta(delta), for: .init(sessionKey: "work", limit: 3, generation: 1)) == nil)
        #expect(sync.read(for: main) == .tail)
    }
}
