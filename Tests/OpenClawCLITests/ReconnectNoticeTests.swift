import Testing

@testable import OpenClawCLI

/// A followed run says `reconnected` once per new socket: also when the drop, the reconnect and the
/// catch-up all happened between two looks at the chat (CI saw `send --json` miss it on a loaded run).
@Suite("Following a run: telling a reconnect")
struct ReconnectNoticeTests {
    /// What a notice says at each look, given each look's socket generation (nil: offline).
    private func told(_ looks: [Int?]) -> [Bool] {
        var notice = ReconnectNotice()
        return looks.map { notice.observe(generation: $0) }
    }

    @Test func aNewSocketIsToldEvenWhenTheDropWasNeverSeen() {
        #expect(told([1, 1, 2, 2]) == [false, false, true, false])
    }

    @Test func aDropThenANewSocketIsToldOnce() {
        #expect(told([1, nil, nil, 2, 2]) == [false, false, false, true, false])
    }

    @Test func aRunThatStartsOfflineIsToldWhenTheConnectionComes() {
        #expect(told([nil, 1, 1]) == [false, true, false])
    }
}
