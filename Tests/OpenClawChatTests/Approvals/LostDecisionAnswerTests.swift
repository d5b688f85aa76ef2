import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// A decision whose answer is lost (issue 38.4): the connection drops after `exec.approval.resolve`
/// left, or the answer never comes. The client must not invite a second decision nor call it "decided
/// elsewhere": it asks the gateway (`exec.approval.get`, then the same decision again) and reports how
/// the request really ended.
@Suite("A decision whose answer is lost")
@MainActor
struct LostDecisionAnswerTests {
    typealias EndToEnd = ApprovalsEndToEndTests

    @Test func aDecisionAppliedBeforeTheDropIsReportedAsOursAfterTheReconnect() async throws {
        try await EndToEnd.withGateway { gateway, viewModel in
            let approver = try await EndToEnd.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let id = try #require(await approver.log.requested.first?.id)

            await gateway.setFaults(FaultPlan(dropConnectionOnApprovalResolve: true))
            await #expect(throws: ApprovalError.inDoubt(id, .allowOnce)) {
                try await approver.client.decide(id, .allowOnce)
            }
            // The command ran: the gateway applied the decision.
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && EndToEnd.lastReply(viewModel).hasPrefix("Done")
                })
            // Meanwhile no second decision is accepted for it: still in doubt, or, when the reconnect's
            // catch-up came first (a loaded machine), known to be ours.
            await #expect {
                try await approver.client.decide(id, .deny)
            } throws: { error in
                error as? ApprovalError == .inDoubt(id, .allowOnce)
                    || error as? ApprovalError == .alreadyResolved(id, .decided(.allowOnce, by: nil, byUs: true))
            }
            // Reconnected, the client asks and reports the truth: allowed, by this client.
            #expect(
                await eventually(timeout: .seconds(30)) {
                    await approver.log.closed.map(\.outcome) == [.decided(.allowOnce, by: nil, byUs: true)]
                })
            #expect(await approver.client.pending.isEmpty)
            #expect(await approver.client.queue.inDoubt.isEmpty)
            await approver.stop()
        }
    }

    @Test func aDecisionThatNeverArrivedIsSaidSoAndMayBeMadeAgain() async throws {
        try await EndToEnd.withGateway { gateway, viewModel in
            let approver = try await EndToEnd.approver(on: gateway, name: "terminal") {
                $0.enableApprovals(required: false)
                // Short, so the ignored decision is in doubt soon; long enough for the decision made again to be
                // answered on a loaded machine (1 s was not, once).
                $0.defaultRequestTimeout = .seconds(3)
            }
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let id = try #require(await approver.log.requested.first?.id)

            await gateway.setFaults(
                FaultPlan(ignoreRequests: [ExecApprovalResolveParams.method, ApprovalResolveParams.method]))
            await #expect(throws: ApprovalError.inDoubt(id, .allowOnce)) {
                try await approver.client.decide(id, .allowOnce)
            }
            // The gateway still lists it as pending: the decision did not land, and the client says so.
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await approver.log.updates.contains { update in
                        if case .undelivered(let approval, .allowOnce) = update { approval.id == id } else { false }
                    }
                })
            #expect(await approver.log.closed.isEmpty)
            #expect(await approver.client.pending.map(\.id) == [id])

            await gateway.setFaults(FaultPlan())
            let closed = try await approver.client.decide(id, .allowOnce)
            #expect(closed.outcome.isAllowedByUs)
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && EndToEnd.lastReply(viewModel).hasPrefix("Done")
                })
            await approver.stop()
        }
    }

    @Test func aCheckLeftUnansweredIsAskedAgainOnTheSameConnection() async throws {
        try await EndToEnd.withGateway { gateway, viewModel in
            let approver = try await EndToEnd.approver(on: gateway, name: "terminal") {
                $0.enableApprovals(required: false)
                $0.defaultRequestTimeout = .seconds(1)
            }
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let id = try #require(await approver.log.requested.first?.id)
            let socket = try #require(await approver.connection.session?.generation)

            // A gateway too slow to answer: the decision and the check that follows it both time out.
            await gateway.setFaults(
                FaultPlan(
                    ignoreRequests: [
                        ExecApprovalResolveParams.method, ApprovalResolveParams.method, ExecApprovalGetParams.method,
                        ExecApprovalListParams.method,
                    ]))
            await #expect(throws: ApprovalError.inDoubt(id, .allowOnce)) {
                try await approver.client.decide(id, .allowOnce)
            }
            #expect(
                await eventually(timeout: .seconds(10)) {
                    await gateway.requestCount(method: ExecApprovalGetParams.method) >= 1
                })
            // It answers again, with the same socket: the client asks again by itself.
            await gateway.setFaults(FaultPlan())
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await approver.log.updates.contains { update in
                        if case .undelivered(let approval, .allowOnce) = update { approval.id == id } else { false }
                    }
                })
            #expect(await approver.client.queue.inDoubt.isEmpty)
            #expect(await approver.connection.session?.generation == socket)
            await approver.stop()
        }
    }

    @Test func theTestGatewayAnswersExecApprovalGetOnlyForAPendingRequest() async throws {
        // Sends `exec.approval.get` with an extra field and an empty id on purpose.
        let wrongOnPurpose = InvalidOnPurpose(ExecApprovalNames.getMethod, "an extra field or an empty id") {
            $0["x"] != nil || $0["id"] == ""
        }
        try await EndToEnd.withGateway(invalidOnPurpose: [wrongOnPurpose]) { gateway, viewModel in
            let approver = try await EndToEnd.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let id = try #require(await approver.log.requested.first?.id)
            let connection = approver.connection

            let found = try await connection.request(ExecApprovalNames.getMethod, params: ["id": .string(id)])
            #expect(found?["id"]?.stringValue == id && found?["commandText"]?.stringValue == "make test")
            #expect(found?["allowedDecisions"]?.arrayValue?.count == 3 && found?["expiresAtMs"]?.intValue != nil)
            // Closed schema, like upstream's `ExecApprovalGetParams`.
            await #expect(throws: GatewayError.self) {
                try await connection.request(ExecApprovalNames.getMethod, params: ["id": .string(id), "x": 1])
            }
            await #expect(throws: GatewayError.self) {
                try await connection.request(ExecApprovalNames.getMethod, params: ["id": ""])
            }
            _ = try await approver.client.decide(id, .deny)
            do {
                _ = try await connection.request(ExecApprovalNames.getMethod, params: ["id": .string(id)])
                Issue.record("a decided request was still found")
            } catch let error as GatewayError {
                guard case .requestFailed(_, let shape) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(shape.code == .invalidRequest && shape.approvalRefusalReason == .notFound)
            }
            await approver.stop()
        }
    }
}

extension ApprovalOutcome {
    fileprivate var isAllowedByUs: Bool {
        if case .decided(let decision, _, true) = self { decision == .allowOnce } else { false }
    }
}
