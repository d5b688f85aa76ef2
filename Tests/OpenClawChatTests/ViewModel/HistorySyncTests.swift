import Testing

@testable import OpenClawChat

/// One history fetch at a time, and who waits for which page, as plain values: the waiters are
/// numbers, the pages are the requests they answer.
@Suite("History sync: pure logic")
struct HistorySyncTests {
    private typealias Sync = HistorySync<Int>
    private let main = Sync.Request(sessionKey: "main", limit: 200, generation: 1)

    /// The waiters `next` releases; nil when it fetches again.
    private func released(_ next: Sync.Next) -> [Int]? {
        guard case .done(let waiters) = next else { return nil }
        return waiters
    }

    /// What `next` fetches; nil when the fetch ends.
    private func refetch(_ next: Sync.Next) -> Sync.Request? {
        guard case .fetch(let request) = next else { return nil }
        return request
    }

    /// A sync whose fetch is under way, with `waiters` parked on it.
    private func fetching(waiters: [Int] = []) -> Sync {
        var sync = Sync()
        _ = sync.start()
        for waiter in waiters { _ = sync.waitForLaterPage(waiter) }
        return sync
    }

    @Test func onlyOneFetchRunsAtATime() {
        var sync = Sync()
        let first = sync.start()
        let second = sync.start()
        #expect(first)
        #expect(!second, "a second caller is served by the fetch under way")
        let next = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(released(next) == [])
        #expect(!sync.isFetching)
        let afterward = sync.start()
        #expect(afterward, "once it ended, the next caller fetches")
    }

    @Test func aWaiterArrivingDuringAFetchMakesItGoAgainAndIsReleasedOnlyByTheLaterPage() {
        var sync = fetching()
        let parked = sync.waitForLaterPage(7)
        #expect(parked == nil)
        // The page in flight was read before the waiter asked: it does not release them.
        let afterFirst = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(refetch(afterFirst) == main)
        #expect(sync.isFetching)
        let afterSecond = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(released(afterSecond) == [7])
        #expect(!sync.isFetching)
    }

    @Test func aWaiterWithNoFetchUnderWayIsHandedBackToFetchItself() {
        var sync = Sync()
        let handedBack = sync.waitForLaterPage(3)
        #expect(handedBack == 3)
        #expect(!sync.isFetching)
    }

    @Test func waitersArrivingDuringTheRepeatWaitForOneMorePage() {
        var sync = fetching(waiters: [1])
        let afterFirst = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(refetch(afterFirst) == main)
        _ = sync.waitForLaterPage(2)
        let afterSecond = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(refetch(afterSecond) == main)
        let afterThird = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(released(afterThird) == [1, 2])
    }

    @Test func aChangeUnderTheFetchFetchesWhatIsWantedNow() {
        var sync = fetching()
        let switched = Sync.Request(sessionKey: "work", limit: 200, generation: 1)
        let older = Sync.Request(sessionKey: "main", limit: 400, generation: 1)
        let reconnected = Sync.Request(sessionKey: "main", limit: 200, generation: 2)
        for wanted in [switched, older, reconnected] {
            let next = sync.next(after: main, wanted: wanted, transcriptAsks: false)
            #expect(refetch(next) == wanted)
        }
        let runEnded = sync.next(after: main, wanted: main, transcriptAsks: true)
        #expect(refetch(runEnded) == main, "a run ended during the fetch")
    }

    @Test func withoutAConnectionTheFetchEndsAndReleasesItsWaiters() {
        var sync = fetching(waiters: [5])
        let next = sync.next(after: main, wanted: nil, transcriptAsks: true)
        #expect(released(next) == [5])
        #expect(!sync.isFetching)
    }

    @Test func aFailedFetchReleasesItsWaitersAndForgetsTheirRequest() {
        var sync = fetching(waiters: [9])
        let waiters = sync.end()
        #expect(waiters == [9])
        // The next fetch starts afresh: nothing asks it to go again.
        let restarted = sync.start()
        #expect(restarted)
        let next = sync.next(after: main, wanted: main, transcriptAsks: false)
        #expect(released(next) == [])
    }

    @Test func aPageFromAnEarlierSocketIsNotApplied() {
        let sync = Sync()
        #expect(sync.accepts(main, sessionKey: "main", generation: 1))
        #expect(!sync.accepts(main, sessionKey: "main", generation: 2), "read before the reconnect's gap")
        #expect(sync.accepts(main, sessionKey: "main", generation: nil), "no newer socket: still the latest word")
    }

    @Test func aPageOfAnotherSessionIsNotApplied() {
        let sync = Sync()
        #expect(!sync.accepts(main, sessionKey: "work", generation: 1))
    }
}
