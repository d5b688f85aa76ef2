import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// Deciding through the unified `approval.resolve` where the gateway lists it (first answer wins, every
/// caller told the recorded state), and through `exec.approval.resolve` where it does not.
@Suite("Approvals: the unified resolver")
@MainActor
struct UnifiedApprovalTests {
    private typealias E2E = ApprovalsEndToEndTests

    private func decideOnce(quirks: GatewayQuirks) async throws -> (unified: Int, exec: Int) {
        var counts = (unified: 0, exec: 0)
        try await E2E.withGateway({ $0.quirks = quirks }) { gateway, viewModel in
            let approver = try await E2E.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("please run a command: make test")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let closed = try await approver.client.decide("", .allowOnce)
            #expect(
                closed.outcome == .decided(.allowOnce, by: nil, byUs: true)
                    || closed.outcome == .decided(.allowOnce, by: "terminal", byUs: true))
            #expect(
                await eventually(timeout: .seconds(20)) {
                    !viewModel.isRunning && E2E.lastReply(viewModel).hasPrefix("Done")
                })
            counts = (
                await gateway.requestCount(method: ApprovalNames.resolveMethod),
                await gateway.requestCount(method: ExecApprovalNames.resolveMethod)
            )
            await approver.stop()
        }
        return counts
    }

    @Test func aGatewayListingTheUnifiedResolverIsDecidedThroughIt() async throws {
        let counts = try await decideOnce(quirks: [])
        #expect(counts.unified == 1)
        #expect(counts.exec == 0)
    }

    @Test func anOlderGatewayIsDecidedThroughExecApprovalResolve() async throws {
        let counts = try await decideOnce(quirks: .noUnifiedApprovals)
        #expect(counts.unified == 0)
        #expect(counts.exec == 1)
    }

    @Test func theSecondAnswerIsToldTheFirst() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let first = try await E2E.approver(on: gateway, name: "Peter's Mac")
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await first.log.requested.count == 1 })
            let id = try #require(await first.log.requested.first?.id)
            _ = try await first.client.decide(id, .allowAlways)
            let late = try await first.connection.request(
                ApprovalResolveParams.method, params: ApprovalResolveParams(id: id, decision: .deny).json)
            let result = try #require(ApprovalResolveResult(json: late))
            #expect(result == ApprovalResolveResult(applied: false, status: .allowed(.allowAlways)))
            #expect(late?["approval"]?["presentation"]?["kind"] == "exec")
            await first.stop()
        }
    }

    @Test func resultsAreReadAsTheirRecordedState() {
        let denied: JSONValue = ["applied": true, "approval": ["status": "denied", "decision": "deny"]]
        #expect(ApprovalResolveResult(json: denied) == ApprovalResolveResult(applied: true, status: .denied))
        #expect(ApprovalResolveResult(json: denied)?.decision == .deny)
        let expired: JSONValue = ["applied": false, "approval": ["status": "expired"]]
        #expect(ApprovalResolveResult(json: expired)?.status == .expired)
        #expect(ApprovalResolveResult(json: ["applied": false]) == nil)
        #expect(
            ApprovalResolveParams(id: "a1", decision: .allowOnce).json == [
                "id": "a1", "kind": "exec", "decision": "allow-once",
            ])
    }
}
