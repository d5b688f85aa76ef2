import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// The chat's session as an approval audience (`session.approval`, 2026.7): an approver that follows the
/// session subscribes with `includeApprovals`, takes what is pending from the answer's replay, and closes
/// a card when its terminal transition comes; a gateway without the audience is never asked.
@Suite("Approvals: the session audience")
@MainActor
struct SessionApprovalTests {
    typealias E2E = ApprovalsEndToEndTests

    /// A connected approver following `session` before it connects.
    static func follower(on gateway: TestGateway, name: String, session: String) async throws -> E2E.Approver {
        let connection = try E2E.connection(to: gateway, name: name) { $0.enableApprovals(required: false) }
        let client = ApprovalsClient(connection: connection)
        await client.followSession(session)
        await client.start()
        let log = E2E.UpdateLog()
        let updates = await client.updates()
        let relay = Task { for await update in updates { await log.append(update) } }
        try await connection.connect()
        return E2E.Approver(connection: connection, client: client, log: log, relay: relay)
    }

    /// The request was made before this approver connected, and the backfill list goes unanswered: the
    /// subscription's replay alone shows it. Another approver's decision then closes it here.
    @Test func whatIsPendingComesWithTheSubscription() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let first = try await E2E.approver(on: gateway, name: "phone")
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await first.log.requested.count == 1 })
            let id = try #require(await first.log.requested.first?.id)

            await gateway.setFaults(FaultPlan(ignoreRequests: [ExecApprovalListParams.method]))
            let late = try await Self.follower(on: gateway, name: "terminal", session: "main")
            #expect(await eventually(timeout: .seconds(20)) { await late.log.requested.map(\.id) == [id] })
            let replayed = try #require(await late.log.requested.first)
            #expect(replayed.request.command == "make test" && replayed.request.sessionKey == "agent:main:main")
            let params = await gateway.lastRequestParams(method: SessionsMessagesSubscribeParams.method)
            #expect(params == ["key": "main", "includeApprovals": true])

            _ = try await first.client.decide(id, .deny)
            #expect(await eventually(timeout: .seconds(20)) { await late.log.closed.map(\.id) == [id] })
            #expect(await late.client.pending.isEmpty)
            await first.stop()
            await late.stop()
        }
    }

    /// A follower that switches sessions leaves the first audience and joins the second.
    @Test func switchingTheFollowedSessionMovesTheSubscription() async throws {
        try await E2E.withGateway { gateway, _ in
            let follower = try await Self.follower(on: gateway, name: "terminal", session: "main")
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await gateway.requestCount(method: SessionsMessagesSubscribeParams.method) == 1
                })
            await follower.client.followSession("work")
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await gateway.lastRequestParams(method: SessionsMessagesSubscribeParams.method)
                        == ["key": "work", "includeApprovals": true]
                })
            #expect(
                await gateway.lastRequestParams(method: SessionsMessagesUnsubscribeParams.method) == ["key": "main"])
            await follower.stop()
        }
    }

    /// A gateway from before the audience is not asked to subscribe; the broadcasts still bring requests.
    @Test func aGatewayWithoutTheAudienceIsNotAsked() async throws {
        try await E2E.withGateway({ $0.quirks.insert(.noSessionApprovals) }) { gateway, viewModel in
            let follower = try await Self.follower(on: gateway, name: "terminal", session: "main")
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await follower.log.requested.count == 1 })
            #expect(await gateway.requestCount(method: SessionsMessagesSubscribeParams.method) == 0)
            await follower.stop()
        }
    }

    /// Events are read as upstream writes them; a phase or an approval missing makes no event.
    @Test func eventsAreReadAsUpstreamWritesThem() throws {
        let pending: JSONValue = [
            "sessionKey": "agent:main:main", "updatedAtMs": 2, "phase": "pending",
            "approval": [
                "id": "approval-1", "createdAtMs": 1, "expiresAtMs": 9_999_999_999_999, "status": "pending",
                "presentation": ["kind": "exec", "commandText": "make test", "allowedDecisions": ["deny"]],
            ],
        ]
        let event = try #require(SessionApprovalEvent(json: pending))
        #expect(event.phase == .pending && event.approval.allowedDecisions == [.deny])
        let request = ExecApprovalRequest(sessionApproval: event.approval, sessionKey: event.sessionKey)
        #expect(request.command == "make test" && request.allowedDecisions == [.deny])
        let noPhase: JSONValue = [
            "sessionKey": "agent:main:main", "phase": "resolved", "approval": pending["approval"] ?? nil,
        ]
        #expect(SessionApprovalEvent(json: noPhase) == nil)
        let noApproval: JSONValue = ["sessionKey": "agent:main:main", "phase": "pending"]
        #expect(SessionApprovalEvent(json: noApproval) == nil)
    }
}
