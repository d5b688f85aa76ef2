import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// Who hears approvals and questions, and how a record reads as a snapshot, asked of
/// `ApprovalsFeature` directly.
@Suite("Test gateway: approvals feature")
struct ApprovalsFeatureTests {
    @Test func execApproversNeedTheScopeAndAnApprovalsCap() {
        let scopes: Set<String> = [OperatorScope.approvals]
        #expect(ApprovalsFeature.isExecApprover(FeaturePeers.peer(scopes: scopes, caps: ["exec-approvals"])))
        #expect(ApprovalsFeature.isExecApprover(FeaturePeers.peer(scopes: scopes, caps: ["approvals"])))
        #expect(ApprovalsFeature.isExecApprover(FeaturePeers.peer(scopes: [OperatorScope.admin], caps: ["approvals"])))
        #expect(!ApprovalsFeature.isExecApprover(FeaturePeers.peer(scopes: scopes)))
        #expect(!ApprovalsFeature.isExecApprover(FeaturePeers.peer(scopes: [OperatorScope.read], caps: ["approvals"])))
        #expect(!ApprovalsFeature.isExecApprover(FeaturePeers.peer(role: .node, scopes: scopes, caps: ["approvals"])))
    }

    @Test func questionsGoToOperatorsHoldingTheQuestionsScope() {
        #expect(ApprovalsFeature.isQuestionAnswerer(FeaturePeers.peer(scopes: [OperatorScope.questions])))
        #expect(ApprovalsFeature.isQuestionAnswerer(FeaturePeers.peer(scopes: [OperatorScope.admin])))
        #expect(!ApprovalsFeature.isQuestionAnswerer(FeaturePeers.peer(scopes: [OperatorScope.approvals])))
        #expect(!ApprovalsFeature.isQuestionAnswerer(FeaturePeers.peer(role: .node, scopes: [OperatorScope.admin])))
    }

    @Test func aSnapshotStatesThePendingThenTheTerminalState() throws {
        let feature = ApprovalsFeature()
        for id in ["a", "b", "c"] {
            feature.registry.add(
                ApprovalRegistry.Record(
                    id: id, request: ["command": "ls", "host": "gateway", "agentId": "main"],
                    allowed: ExecApprovalDecision.allCases, createdAtMs: 1, expiresAtMs: 100))
        }
        let pending = feature.snapshot(try #require(feature.registry.records["a"]))
        #expect(pending["status"] == "pending")
        #expect(Self.members(pending).isDisjoint(with: ["resolvedAtMs", "reason", "decision"]))

        _ = feature.registry.decide("a", .deny, by: "tester")
        _ = feature.registry.decide("b", .allowOnce, by: "tester")
        _ = feature.registry.expire("c")
        let snapshots = ["a", "b", "c"].compactMap { feature.registry.records[$0] }.map(feature.snapshot)
        #expect(snapshots.map { $0["status"] } == ["denied", "allowed", "expired"])
        #expect(snapshots.map { $0["reason"] } == ["user", "user", "timeout"])
        #expect(snapshots[0]["decision"] == "deny")
        #expect(!Self.members(snapshots[2]).contains("decision"))
    }

    static func members(_ json: JSONValue) -> Set<String> { Set(json.objectValue?.keys.map { $0 } ?? []) }
}
