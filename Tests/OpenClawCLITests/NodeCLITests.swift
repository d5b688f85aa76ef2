import Foundation
import OpenClawTestGateway
import OpenClawTestSupport
import Testing

@Suite("openclaw-chat node and approvals")
struct NodeCLITests {
    @Test func approvalsEditsThePolicyAndRefusesBareNames() async throws {
        let state = CLIProcess.temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let edit = try await CLIProcess.run([
            "approvals", "--state-dir", state, "--security", "allowlist", "--ask", "off", "allow", "/usr/bin/echo",
        ])
        #expect(edit.status == 0)
        #expect(edit.stdout.contains("allow /usr/bin/echo"))
        let path = state + "/exec-approvals.json"
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("\"security\": \"allowlist\""))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let bare = try await CLIProcess.run(["approvals", "--state-dir", state, "allow", "git"])
        #expect(bare.status != 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == saved)

        let removed = try await CLIProcess.run(["approvals", "--state-dir", state, "deny", "/usr/bin/echo"])
        #expect(removed.status == 0)
        #expect(!removed.stdout.contains("allow /usr/bin/echo"))
    }

    @Test func theNodeConnectsAndCtrlCStopsItCleanly() async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration())
        let state = CLIProcess.temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let node = try InteractiveProcess(
            ["node", "--url", gateway.url, "--token", "test-token", "--state-dir", state], mode: .pipes)
        defer { node.killIfRunning() }
        let connected = await eventually(timeout: .seconds(20)) { await gateway.connectedNodes().count == 1 }
        #expect(connected)
        node.sendSignal(SIGINT)
        let status = try await node.waitForExit()
        let output = node.output
        #expect(status == 0, "output:\n\(output)")
        #expect(output.contains("system.run"))
        #expect(output.contains("stopping the node"))
        #expect(await eventually { await gateway.connectedNodes().isEmpty })
        await gateway.stop()
    }

    /// The gateway comes back with another token and has forgotten this device: retrying cannot help,
    /// so `node` and `approvals watch` say so on stderr at once and exit with the auth status (4),
    /// instead of staying up silently.
    @Test(arguments: [["node"], ["approvals", "watch"]])
    func aRefusedLongRunningCommandSaysSoAndExits(_ command: [String]) async throws {
        let gateway = try await TestGateway.start(TestGatewayConfiguration())
        defer { Task { await gateway.stop() } }
        let state = CLIProcess.temporaryStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let process = try InteractiveProcess(
            command + ["--url", gateway.url, "--token", "test-token", "--state-dir", state], mode: .pipes)
        defer { process.killIfRunning() }
        #expect(await eventually(timeout: .seconds(20)) { await gateway.receivedConnectParams().count >= 1 })
        try await Task.sleep(for: .milliseconds(500))
        await gateway.revokeDeviceTokens()
        await gateway.rotateSharedAuth(to: .token("rotated"))
        await gateway.dropAllConnections()
        let start = ContinuousClock.now
        let status = try await process.waitForExit(timeout: .seconds(30))
        #expect(status == 4, "output:\n\(process.output)")
        #expect(ContinuousClock.now - start < .seconds(15))
        #expect(process.output.lowercased().contains("token"), "output:\n\(process.output)")
    }
}
