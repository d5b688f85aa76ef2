import OpenClawApprovals
import OpenClawChat
import OpenClawProtocol
import Testing

/// The approvals a client holds: ids, prefixes, deadlines from the gateway's times, first word wins.
@Suite("Approval queue")
struct ApprovalQueueTests {
    let start = ContinuousClock.now

    func request(_ id: String, created: Int? = 1_000_000, expires: Int? = 1_060_000) -> ExecApprovalRequest {
        ExecApprovalRequest(id: id, command: "make \(id)", createdAtMs: created, expiresAtMs: expires)
    }

    @Test func theDeadlineIsTheGatewaysLifetimeFromArrivalWhateverTheLocalClockSays() throws {
        var queue = ApprovalQueue()
        // The local wall clock is an hour ahead of the gateway's: irrelevant when both times are given.
        let received = queue.receive(request("a"), at: start, wallClockNowMs: 1_000_000 + 3_600_000)
        let approval = try #require(received)
        #expect(approval.deadline == start + .seconds(60))
        #expect(approval.countdown(at: start) == "1:00")
        #expect(approval.countdown(at: start + .milliseconds(500)) == "1:00")
        #expect(approval.countdown(at: start + .seconds(59)) == "0:01")
        #expect(approval.countdown(at: start + .seconds(61)) == "0:00")
        // Without createdAtMs, the local wall clock is all there is; without either, upstream's 30 minutes.
        let receivedB = queue.receive(
            request("b", created: nil, expires: 2_000_000), at: start, wallClockNowMs: 1_990_000)
        let noCreated = try #require(receivedB)
        #expect(noCreated.deadline == start + .seconds(10))
        let receivedC = queue.receive(request("c", created: nil, expires: nil), at: start, wallClockNowMs: 0)
        let noTimes = try #require(receivedC)
        #expect(noTimes.deadline == start + .milliseconds(PendingApproval.defaultLifetimeMs))
        // A hostile lifetime is capped at a day.
        let receivedD = queue.receive(request("d", created: 0, expires: Int.max / 2), at: start, wallClockNowMs: 0)
        let huge = try #require(receivedD)
        #expect(huge.deadline == start + .milliseconds(PendingApproval.maxLifetimeMs))
        #expect(huge.countdown(at: start) == "24:00:00")
    }

    @Test func expiryClosesOnlyWhatIsDueAndTheFirstWordWins() throws {
        var queue = ApprovalQueue()
        _ = queue.receive(request("short", created: 0, expires: 1_000), at: start, wallClockNowMs: 0)
        _ = queue.receive(request("long", created: 0, expires: 5_000), at: start, wallClockNowMs: 0)
        #expect(queue.nextDeadline == start + .seconds(1))
        let early = queue.expire(at: start + .milliseconds(999))
        #expect(early.isEmpty)
        let due = queue.expire(at: start + .seconds(1))
        #expect(due.map(\.id) == ["short"])
        #expect(queue.outcome(of: "short") == .expired)
        // Another approver decides "long"; a repeat of that event and a late expiry change nothing.
        let closed = queue.resolved(ExecApprovalResolved(id: "long", decision: .deny, resolvedBy: "Mac"))
        #expect(closed?.outcome == .decided(.deny, by: "Mac", byUs: false))
        let repeated = queue.resolved(ExecApprovalResolved(id: "long", decision: .allowOnce))
        #expect(repeated == nil)
        let late = queue.expire(at: start + .seconds(10))
        #expect(late.isEmpty)
        #expect(queue.pending.isEmpty && queue.nextDeadline == nil)
        // A late duplicate of a closed request does not reopen it.
        let reopened = queue.receive(request("long"), at: start, wallClockNowMs: 0)
        #expect(reopened == nil)
        // An unknown decision still closes the request.
        _ = queue.receive(request("new"), at: start, wallClockNowMs: 0)
        let unknown = queue.resolved(ExecApprovalResolved(id: "new", decision: nil))
        #expect(unknown?.outcome == .resolvedOther(by: nil))
    }

    @Test func aPersonNamesARequestByIdUniquePrefixOrNothingWhenOneIsPending() throws {
        var queue = ApprovalQueue()
        #expect(queue.match("") == .failure(.nothingPending))
        _ = queue.receive(request("abc123"), at: start, wallClockNowMs: 0)
        #expect(try queue.match("").get().id == "abc123")
        #expect(try queue.match("ab").get().id == "abc123")
        _ = queue.receive(request("abd456"), at: start, wallClockNowMs: 0)
        #expect(queue.match("") == .failure(.ambiguous("", candidates: ["abc123", "abd456"])))
        #expect(queue.match("ab") == .failure(.ambiguous("ab", candidates: ["abc123", "abd456"])))
        #expect(try queue.match(" abd ").get().id == "abd456")
        #expect(queue.match("zz") == .failure(.notFound("zz")))
        #expect(queue.shortId("abc123", minimum: 2) == "abc")
        _ = queue.close("abc123", .decided(.allowOnce, by: nil, byUs: true))
        #expect(queue.match("abc") == .failure(.alreadyResolved("abc123", .decided(.allowOnce, by: nil, byUs: true))))
        _ = queue.expire(at: start + .seconds(3600))
        #expect(queue.match("abd") == .failure(.expired("abd456")))
    }

    /// A decision typed for a request that has closed must not land on another whose id begins with it.
    @Test func aClosedRequestNamedInFullIsNeverAnotherThatBeginsWithIt() throws {
        var queue = ApprovalQueue()
        _ = queue.receive(request("abc"), at: start, wallClockNowMs: 0)
        _ = queue.receive(request("abcdef"), at: start, wallClockNowMs: 0)
        _ = queue.close("abc", .decided(.deny, by: "Mac", byUs: false))
        #expect(queue.match("abc") == .failure(.alreadyResolved("abc", .decided(.deny, by: "Mac", byUs: false))))
        #expect(try queue.match("abcd").get().id == "abcdef")
    }

    @Test func aDuplicateRequestIsIgnoredAndTheQueueIsBounded() {
        var queue = ApprovalQueue()
        let first = queue.receive(request("a"), at: start, wallClockNowMs: 0)
        let again = queue.receive(request("a"), at: start, wallClockNowMs: 0)
        #expect(first != nil && again == nil)
        for index in 1..<ApprovalQueue.maxPending {
            _ = queue.receive(request("r\(index)"), at: start, wallClockNowMs: 0)
        }
        #expect(queue.pending.count == ApprovalQueue.maxPending)
        let overflow = queue.receive(request("one too many"), at: start, wallClockNowMs: 0)
        #expect(overflow == nil)
    }

    @Test func aReconnectAddsWhatWasMissedAndWithdrawsWhatIsGoneButKeepsWhatIsNewer() {
        var queue = ApprovalQueue()
        _ = queue.receive(request("gone"), at: start, wallClockNowMs: 0)
        _ = queue.receive(request("kept"), at: start, wallClockNowMs: 0)
        let listedSince = start + .seconds(1)
        // Arrived after the list was asked for: the list may not show it yet.
        _ = queue.receive(request("newer"), at: start + .seconds(2), wallClockNowMs: 0)
        // Arrived and decided elsewhere while the list was on its way: the list must not bring it back.
        _ = queue.receive(request("decided meanwhile"), at: start + .seconds(2), wallClockNowMs: 0)
        _ = queue.resolved(ExecApprovalResolved(id: "decided meanwhile", decision: .deny))
        let (added, withdrawn) = queue.reconcile(
            listed: [request("kept"), request("missed"), request("decided meanwhile")], listedSince: listedSince,
            at: start + .seconds(3), wallClockNowMs: 0)
        #expect(added.map(\.id) == ["missed"])
        #expect(withdrawn.map(\.id) == ["gone"] && withdrawn.map(\.outcome) == [.withdrawn])
        #expect(queue.pending.map(\.id) == ["kept", "newer", "missed"])
    }

    /// A decision whose answer was lost may have landed: until the gateway is asked, the request
    /// neither expires here nor is withdrawn by a list that no longer shows it.
    @Test func aRequestInDoubtNeitherExpiresNorIsWithdrawn() {
        var queue = ApprovalQueue()
        _ = queue.receive(request("sent"), at: start, wallClockNowMs: 1_000_000)
        queue.markInDoubt("sent", .allowOnce)
        #expect(queue.inDoubt == ["sent": .allowOnce])
        #expect(queue.expire(at: start + .seconds(3600)).isEmpty)
        #expect(queue.nextDeadline == nil)
        let (_, withdrawn) = queue.reconcile(
            listed: [], listedSince: start + .seconds(1), at: start + .seconds(2), wallClockNowMs: 0)
        #expect(withdrawn.isEmpty && queue.pending.map(\.id) == ["sent"])
        // The gateway says it still waits: it expires as any other again.
        #expect(queue.clearDoubt("sent") == .allowOnce)
        #expect(queue.expire(at: start + .seconds(3600)).map(\.outcome) == [.expired])
    }
}
