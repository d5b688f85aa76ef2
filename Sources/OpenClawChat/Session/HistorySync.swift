/// The bookkeeping of `chat.history` fetches, apart from the fetching itself: one fetch at a time, so
/// two pages never race to reconcile the transcript; a caller who needs a page read after their call
/// (`/history`, a reset) makes the fetch under way go again and waits for that later page; a page read
/// on a socket that has since been replaced is not applied, as it predates the reconnect's resync.
///
/// It also decides how a page is read. After a tail page with a `deltaCursor`, the same session at the
/// same page size is read by catching up: the gateway sends only what was stored since, and the page
/// to reconcile is the last one extended by that gap (``caughtUp(_:for:)``). A `reset` answer, another
/// session or page size, or a gateway without cursors means a whole tail page, as before.
///
/// A value with no I/O and no clock, so these rules are tested without a gateway
/// (`HistorySyncTests`). ``ChatSession`` does the fetches and asks it what to do after each.
/// `Waiter` is whatever resumes a waiting caller (a continuation in the view model, a plain value in
/// tests).
import OpenClawProtocol

struct HistorySync<Waiter> {
    /// What one fetch asks for: a page of a session, on one socket.
    struct Request: Sendable, Hashable {
        var sessionKey: String
        /// The page size (the gateway returns the latest `limit` messages).
        var limit: Int
        /// The socket generation the fetch was sent on.
        var generation: Int
    }

    /// What to do once a page has been handled.
    enum Next {
        /// The page no longer answers what is wanted (or a later one was asked for): fetch this.
        case fetch(Request)
        /// Nothing more is wanted: resume these waiters, whose page has now been applied (or whose
        /// fetch could not go on).
        case done(release: [Waiter])
    }

    /// Whether a fetch is under way, from its first request until ``next(after:wanted:transcriptAsks:)``
    /// or ``end()`` releases it; callers arriving meanwhile are served by it.
    private(set) var isFetching = false
    /// A caller asked for a page read after their call while a fetch was under way: the page in flight
    /// may predate what they wait to see.
    private var mustGoAgain = false
    private var waiters: [Waiter] = []
    /// The last page read for a request, as the gateway would send it as a tail page now: what a
    /// catch-up extends. Nil before the first page and after a `reset`.
    private(set) var base: (request: Request, page: ChatHistoryPage)?

    /// How to read the page for one request.
    enum Read: Equatable {
        /// A whole tail page (`limit` messages).
        case tail
        /// Only what was stored after the page this cursor came with.
        case catchUp(cursor: String)
    }

    /// Claims the one fetch. False when one is under way: it serves this caller too, and goes again by
    /// itself when what is wanted changed under it.
    mutating func start() -> Bool {
        guard !isFetching else { return false }
        isFetching = true
        return true
    }

    /// Parks `waiter` until a page asked for after now is applied, making the fetch under way go again.
    /// Returns the waiter back when no fetch is under way: there is nothing to wait for, and the caller
    /// starts one itself.
    mutating func waitForLaterPage(_ waiter: Waiter) -> Waiter? {
        guard isFetching else { return waiter }
        mustGoAgain = true
        waiters.append(waiter)
        return nil
    }

    /// Whether the page answering `request` may be reconciled. Not when another session is shown now
    /// (its rows would be replaced by the wrong session's), nor when another socket has connected since:
    /// the events lost between the two sockets are after that page, and reconciling with it would spend
    /// the resync on a page read before the gap. With no socket now the page is still the gateway's
    /// latest word, and the next socket's resync fetches again anyway.
    func accepts(_ request: Request, sessionKey: String, generation: Int?) -> Bool {
        guard request.sessionKey == sessionKey else { return false }
        guard let generation else { return true }
        return generation == request.generation
    }

    /// Decides, after the page for `request` was handled, whether to fetch again: when what is wanted now
    /// (`wanted`, nil without a connection) differs from what was asked (a switch, `loadOlder()`, a new
    /// socket), when the transcript asks for a refresh (a run ended during the fetch), or when a waiter
    /// arrived during it. Otherwise the fetch ends and its waiters are released.
    mutating func next(after request: Request, wanted: Request?, transcriptAsks: Bool) -> Next {
        if let wanted, wanted != request || transcriptAsks || mustGoAgain {
            mustGoAgain = false
            return .fetch(wanted)
        }
        return .done(release: end())
    }

    /// Ends the fetch under way (it failed, or the connection went) and returns the waiters to resume:
    /// they wait for nothing that will come, and a new connection fetches by itself.
    mutating func end() -> [Waiter] {
        isFetching = false
        mustGoAgain = false
        let released = waiters
        waiters = []
        return released
    }

    // MARK: Catching up instead of reading the whole page again

    /// A catch-up when the last page was of the same session at the same page size and came with a
    /// cursor (the socket may differ: that is the point after a reconnect); a tail page otherwise.
    func read(for request: Request) -> Read {
        guard let base, base.request.sessionKey == request.sessionKey, base.request.limit == request.limit,
            let cursor = base.page.deltaCursor, !cursor.isEmpty
        else { return .tail }
        return .catchUp(cursor: cursor)
    }

    /// A tail page was read for `request`: the next read of it may catch up from here.
    mutating func tailRead(_ page: ChatHistoryPage, for request: Request) {
        base = (request, page)
    }

    /// The page to reconcile after a catch-up answer: the last page with the gap appended (a message the
    /// gap carries again, by `__openclaw.id`, replaced with all its sibling rows), cut to the page size.
    /// Nil for `reset`, or when there is no page the answer extends: read a tail page then.
    mutating func caughtUp(_ answer: ChatHistoryCatchUp, for request: Request) -> ChatHistoryPage? {
        guard case .delta(let delta) = answer, let base,
            base.request.sessionKey == request.sessionKey, base.request.limit == request.limit
        else {
            base = nil
            return nil
        }
        var page = base.page
        let renewed = Set(delta.messages.compactMap(\.entry?.id))
        var messages = page.messages.filter { message in message.entry?.id.map { !renewed.contains($0) } ?? true }
        messages.append(contentsOf: delta.messages)
        let overflow = messages.count - max(1, request.limit)
        if overflow > 0 {
            messages.removeFirst(overflow)
            page.hasMore = true
        }
        page.messages = messages
        if page.hasMore == true { page.nextOffset = messages.count }
        page.inFlightRun = delta.inFlightRun
        page.deltaCursor = delta.deltaCursor
        self.base = (request, page)
        return page
    }

    /// Forgets the page a catch-up would extend (its catch-up failed): the next read is a tail page.
    mutating func forgetBase() {
        base = nil
    }
}
