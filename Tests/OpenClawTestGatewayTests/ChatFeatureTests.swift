import OpenClawProtocol
import Testing

@testable import OpenClawTestGatewayCore

/// Who may abort a run, asked of `ChatFeature` directly.
@Suite("Test gateway: chat feature")
struct ChatFeatureTests {
    static let run = ChatRun(
        runId: "run-1", rawSessionKey: "main", sessionKey: "agent:main:main", ownerConnection: 1,
        ownerDevice: "dev-1", silent: false, ordinal: 1)

    @Test func theStarterItsDeviceAndAnAdminMayAbortNobodyElse() {
        let run = Self.run
        #expect(ChatFeature.mayAbort(run, by: FeaturePeers.peer(id: 1)))
        #expect(ChatFeature.mayAbort(run, by: FeaturePeers.peer(id: 2, deviceId: "dev-1")))
        #expect(ChatFeature.mayAbort(run, by: FeaturePeers.peer(id: 3, scopes: [OperatorScope.admin])))
        #expect(!ChatFeature.mayAbort(run, by: FeaturePeers.peer(id: 4, scopes: [OperatorScope.write])))
        #expect(!ChatFeature.mayAbort(run, by: FeaturePeers.peer(id: 5, deviceId: "dev-2")))
        #expect(!ChatFeature.mayAbort(run, by: nil))
    }

    /// A run started without a device is not everyone's: a peer without a device is not its owner.
    @Test func aDevicelessRunIsNotAbortableByAnotherDevicelessPeer() {
        let run = ChatRun(
            runId: "run-2", rawSessionKey: "main", sessionKey: "agent:main:main", ownerConnection: 1,
            ownerDevice: nil, silent: false, ordinal: 2)
        #expect(!ChatFeature.mayAbort(run, by: FeaturePeers.peer(id: 2)))
    }

    @Test func stoppingTheGatewayCancelsEveryRun() {
        let chat = ChatFeature(configuration: TestGatewayConfiguration())
        var run = Self.run
        let task = Task<Void, Never> { try? await Task.sleep(for: .seconds(60)) }
        run.task = task
        chat.runs[run.runId] = run
        chat.cancelAllRuns()
        #expect(chat.runs.isEmpty)
        #expect(task.isCancelled)
    }
}
