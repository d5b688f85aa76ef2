import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
@_exported import OpenClawTestSupport
import Synchronization

@testable import OpenClawNode

/// A node host and an operator, both connected to one test gateway over 127.0.0.1, with the node's
/// approvals file in a fresh temporary directory.
struct NodeFixture {
    let gateway: TestGateway
    let node: GatewayConnection
    let host: NodeHost
    let nodeOperator: NodeOperator
    var operatorConnection: GatewayConnection { nodeOperator.connection }
    var nodeId: String { nodeOperator.nodeId }
    let directory: String
    let approvals: ExecApprovalsStore
    let activity: ActivityLog

    static let searchPath = "/usr/local/bin:/usr/bin:/bin"

    static func start(
        on gateway: TestGateway, policy: ExecApprovalsFile, reconnect: ReconnectPolicy? = nil,
        nodeEnvironment: [String: String] = [:], maxConcurrentInvokes: Int = NodeHost.defaultMaxConcurrentInvokes,
        startsHost: Bool = true
    ) async throws -> NodeFixture {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("openclaw-node-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let approvals = ExecApprovalsStore(path: directory + "/" + ExecApprovalsStore.fileName)
        try approvals.set(policy, baseHash: nil)
        let runner = SubprocessRunner()
        let commands = DesktopNode.commands(
            approvals: approvals, runner: runner, notifier: RecordingNotifier(), searchPath: searchPath,
            home: directory, nodeEnvironment: nodeEnvironment, stateDirectory: directory + "/state")
        let url = try GatewayURL(parsing: gateway.url)
        var nodeConfiguration = GatewayConnectionConfiguration(
            url: url, credential: .token("test-token"),
            client: ClientInfo(id: .nodeHost, mode: .node, version: "test", platform: "linux"), role: "node",
            scopes: [], caps: DesktopNode.caps, defaultRequestTimeout: .seconds(10), reconnect: reconnect)
        nodeConfiguration.nodeDeclaration = DesktopNode.declaration(commands: commands, searchPath: searchPath)
        let node = GatewayConnection(
            configuration: nodeConfiguration,
            identityStore: InMemoryDeviceIdentityStore(identity: DeviceIdentity(createdAtMs: 0)),
            tokenStore: InMemoryDeviceTokenStore())
        let host = NodeHost(connection: node, commands: commands, maxConcurrentInvokes: maxConcurrentInvokes)
        let activity = ActivityLog(host.activity)
        if startsHost { await host.start() }
        let session = try await node.connect()
        let nodeOperator = try await NodeOperator.connect(to: gateway.url, nodeId: session.deviceId)
        return NodeFixture(
            gateway: gateway, node: node, host: host, nodeOperator: nodeOperator, directory: directory,
            approvals: approvals, activity: activity)
    }

    /// `node.invoke` as an operator calls it; the payload of the gateway's answer.
    func invoke(
        _ command: String, _ params: JSONValue, timeoutMs: Int? = nil
    ) async throws(GatewayError)
        -> JSONValue?
    {
        try await nodeOperator.invoke(command, params, timeoutMs: timeoutMs)
    }

    func stop() async {
        await host.stop()
        await node.disconnect()
        await nodeOperator.disconnect()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func policy(
        _ security: ExecSecurity, ask: ExecAsk = .off, allow patterns: [String] = []
    ) -> ExecApprovalsFile {
        ExecApprovalsFile(
            defaults: ExecPolicySettings(security: security, ask: ask, askFallback: .deny),
            agents: ["main": ExecPolicySettings(allowlist: patterns.map { ExecAllowlistEntry(pattern: $0) })])
    }
}

/// Collects a node host's activity lines.
final class ActivityLog: Sendable {
    private let box = LockedBox<[NodeActivity]>([])
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<NodeActivity>) {
        let box = self.box
        task = Task {
            for await line in stream { box.mutate { $0.append(line) } }
        }
    }

    var lines: [NodeActivity] { box.value }

    deinit { task.cancel() }
}

struct RecordingNotifier: Notifier {
    func show(_ notification: NodeNotification) async throws(NodeInvokeError) {}
}

/// A process is gone when /proc has no entry for it or it is a zombie waiting for its reaper.
func processIsGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
}

final class LockedBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    var value: Value { mutex.withLock { $0 } }

    func mutate(_ body: (inout Value) -> Void) {
        mutex.withLock { body(&$0) }
    }
}
