import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawApprovals
@testable import OpenClawChat

/// The gateway's record of approvals: `approval.get` for one approval's recorded state and
/// `approval.history` for the terminal ones, newest first and paged; neither is asked of a gateway
/// that does not list it.
@Suite("Approvals: recorded state and history")
@MainActor
struct ApprovalRecordsTests {
    private typealias E2E = ApprovalsEndToEndTests

    /// Runs `message`, waits for its request, decides it and waits for the run to end; the id.
    private func decided(
        _ message: String, _ decision: ExecApprovalDecision, approver: E2E.Approver, viewModel: ChatSession
    ) async throws -> String {
        let before = await approver.log.requested.count
        _ = await viewModel.send(message)
        #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == before + 1 })
        let id = try #require(await approver.log.requested.last?.id)
        _ = try await approver.client.decide(id, decision)
        #expect(await eventually(timeout: .seconds(20)) { !viewModel.isRunning })
        return id
    }

    @Test func aDecidedApprovalIsReadBackAndListedNewestFirst() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let approver = try await E2E.approver(on: gateway, name: "terminal")
            let allowed = try await decided(
                "run a command: make test", .allowOnce, approver: approver, viewModel: viewModel)
            let denied = try await decided("run a command: rm -rf /", .deny, approver: approver, viewModel: viewModel)

            guard case .recorded(let record) = try await approver.client.recordedState(allowed) else {
                Issue.record("approval.get did not answer")
                return
            }
            #expect(record.status == .allowed && record.decision == .allowOnce && record.reason == "user")
            #expect(record.kind == "exec" && record.subject == "make test" && record.resolvedAtMs != nil)
            #expect(try await approver.client.recordedState("no-such-id") == .notFound)

            let first = try #require(try await approver.client.history(limit: 1))
            #expect(first.items.map(\.id) == [denied])
            #expect(first.items.first?.status == .denied)
            let cursor = try #require(first.nextCursor)
            let second = try #require(try await approver.client.history(limit: 1, cursor: cursor))
            #expect(second.items.map(\.id) == [allowed])
            #expect(second.nextCursor == nil)
            await approver.stop()
        }
    }

    @Test func aPendingApprovalIsRecordedAsPendingAndIsNotHistory() async throws {
        try await E2E.withGateway { gateway, viewModel in
            let approver = try await E2E.approver(on: gateway, name: "terminal")
            _ = await viewModel.send("run a command")
            #expect(await eventually(timeout: .seconds(20)) { await approver.log.requested.count == 1 })
            let id = try #require(await approver.log.requested.first?.id)
            #expect(
                try await approver.client.recordedState(id)
                    == .recorded(try #require(await self.snapshot(approver, id))))
            #expect(try await approver.client.history()?.items.isEmpty == true)
            _ = try await approver.client.decide(id, .deny)
            await approver.stop()
        }
    }

    private func snapshot(_ approver: E2E.Approver, _ id: String) async -> ApprovalSnapshot? {
        guard case .recorded(let snapshot)? = try? await approver.client.recordedState(id), snapshot.status == .pending
        else { return nil }
        return snapshot
    }

    @Test func anOlderGatewayIsAskedNeither() async throws {
        try await E2E.withGateway({ $0.quirks = .noUnifiedApprovals }) { gateway, viewModel in
            let approver = try await E2E.approver(on: gateway, name: "terminal")
            let id = try await decided("run a command", .allowOnce, approver: approver, viewModel: viewModel)
            #expect(try await approver.client.recordedState(id) == .unsupported)
            #expect(try await approver.client.history() == nil)
            #expect(await gateway.requestCount(method: ApprovalNames.getMethod) == 0)
            #expect(await gateway.requestCount(method: ApprovalNames.historyMethod) == 0)
            await approver.stop()
        }
    }

    @Test func paramsAreCheckedAsStrictlyAsUpstream() async throws {
        let invalid: [(String, JSONValue)] = [
            (ApprovalNames.getMethod, [:]), (ApprovalNames.getMethod, ["id": "x", "kind": "exec"]),
            (ApprovalNames.historyMethod, ["limit": 0]), (ApprovalNames.historyMethod, ["limit": 101]),
            (ApprovalNames.historyMethod, ["kind": "shell"]), (ApprovalNames.historyMethod, ["cursor": ""]),
            (ApprovalNames.historyMethod, ["all": true]),
        ]
        // A cursor this gateway did not issue fits the schema; the gateway refuses it on its own.
        let notIssued: JSONValue = ["cursor": "not-issued"]
        let refused = invalid + [(ApprovalNames.historyMethod, notIssued)]
        let wrongOnPurpose = invalid.map { InvalidOnPurpose($0.0, params: $0.1) }
        try await E2E.withGateway(invalidOnPurpose: wrongOnPurpose) { gateway, _ in
            let approver = try await E2E.approver(on: gateway, name: "terminal")
            for (method, params) in refused {
                do {
                    _ = try await approver.connection.request(method, params: params)
                    Issue.record("\(method) accepted \(params)")
                } catch {
                    guard case .requestFailed(_, let shape)? = error as? GatewayError else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                    #expect(shape.code == .invalidRequest)
                }
            }
            let empty = try await approver.connection.request(
                ApprovalNames.historyMethod, params: ["kind": "plugin", "limit": 100])
            #expect(ApprovalHistoryPage(json: empty) == ApprovalHistoryPage(items: []))
            #expect(ApprovalHistoryParams(limit: 500).json == ["limit": 100])
            await approver.stop()
        }
    }
}
