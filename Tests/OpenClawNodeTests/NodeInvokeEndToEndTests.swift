import Foundation
import OpenClawGateway
import OpenClawNode
import OpenClawProtocol
import OpenClawTestGateway
import Testing

/// An operator calls `node.invoke`; the test gateway relays it to our node over real sockets on
/// 127.0.0.1; the node runs real processes under its approvals policy.
@Suite("Node mode end to end")
struct NodeInvokeEndToEndTests {
    @Test func anOperatorRunsWhichAndRunOnTheNode() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.allowlist, allow: ["/usr/bin/echo"]))
            defer { Task { await fixture.stop() } }
            #expect(await gateway.connectedNodes() == [fixture.nodeId])

            let list = try await fixture.operatorConnection.request("node.list", params: [:])
            let commands = list?["nodes"]?.arrayValue?.first?["commands"]?.stringArrayValue ?? []
            #expect(commands.contains("system.run") && commands.contains("system.which"))
            let described = try await fixture.operatorConnection.request(
                "node.describe", params: ["nodeId": .string(fixture.nodeId)])
            #expect(described?["nodeId"]?.stringValue == fixture.nodeId && described?["ts"]?.intValue != nil)

            let which = try await fixture.invoke("system.which", ["bins": ["sh", "no-such-binary-e7f3"]])
            #expect(which?["payload"]?["bins"]?["sh"]?.stringValue?.hasSuffix("sh") == true)
            #expect(which?["payload"]?["bins"]?["no-such-binary-e7f3"] == nil)

            let run = try await fixture.invoke("system.run", ["command": ["echo", "hello node"]])
            let payload = run?["payload"]
            #expect(payload?["stdout"]?.stringValue == "hello node\n")
            #expect(payload?["exitCode"]?.intValue == 0)
            #expect(payload?["success"]?.boolValue == true)
            #expect(payload?["truncated"]?.boolValue == false)

            #expect(await eventually { await gateway.nodeEvents().contains { $0.event == "exec.finished" } })
            let finished = await gateway.nodeEvents().first { $0.event == "exec.finished" }
            #expect(finished?.payload?["output"]?.stringValue == "hello node\n")
            #expect(finished?.payload?["host"]?.stringValue == "node")
        }
    }

    @Test func aCommandOutsideTheAllowlistIsRefusedWithoutRunning() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.allowlist, allow: ["/usr/bin/echo"]))
            defer { Task { await fixture.stop() } }
            let marker = fixture.directory + "/marker"

            await #expect {
                _ = try await fixture.invoke("system.run", ["command": ["touch", .string(marker)]])
            } throws: { error in
                guard case .requestFailed(let method, let shape)? = error as? GatewayError else { return false }
                return method == "node.invoke" && shape.code == .unavailable
                    && shape.message.contains("SYSTEM_RUN_DENIED: allowlist miss")
            }
            #expect(!FileManager.default.fileExists(atPath: marker))
            #expect(await eventually { await gateway.nodeEvents().contains { $0.event == "exec.denied" } })
            let denied = await gateway.nodeEvents().first { $0.event == "exec.denied" }
            #expect(denied?.payload?["reason"]?.stringValue == "allowlist miss")
            #expect(fixture.activity.lines.contains { $0.decision == "denied (allowlist miss)" })
        }
    }

    @Test func aShellNeedsAnEntryNamingItEvenWhenAWildcardCoversIt() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.allowlist, allow: ["/usr/bin/*"]))
            defer { Task { await fixture.stop() } }
            let marker = fixture.directory + "/marker"
            await #expect(throws: GatewayError.self) {
                _ = try await fixture.invoke("system.run", ["command": ["sh", "-c", .string("touch \(marker)")]])
            }
            #expect(!FileManager.default.fileExists(atPath: marker))
        }
    }

    @Test func aCommandTimeoutKillsTheChildAndItsChildren() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.full))
            defer { Task { await fixture.stop() } }
            let pidFile = fixture.directory + "/grandchild.pid"
            let script = "sleep 60 & echo $! > \(pidFile); wait"
            let run = try await fixture.invoke(
                "system.run", ["command": ["sh", "-c", .string(script)], "timeoutMs": 500])
            #expect(run?["payload"]?["timedOut"]?.boolValue == true)
            #expect(run?["payload"]?["success"]?.boolValue == false)
            let text = try String(contentsOfFile: pidFile, encoding: .utf8)
            let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(await eventually { processIsGone(pid) })
        }
    }

    @Test func anInvokeTimeoutCancelsTheRunOnTheNode() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.full))
            defer { Task { await fixture.stop() } }
            let pidFile = fixture.directory + "/grandchild.pid"
            let script = "sleep 60 & echo $! > \(pidFile); wait"
            await #expect {
                _ = try await fixture.invoke("system.run", ["command": ["sh", "-c", .string(script)]], timeoutMs: 1500)
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message.hasPrefix("TIMEOUT")
            }
            let text = try String(contentsOfFile: pidFile, encoding: .utf8)
            let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(await eventually { processIsGone(pid) })
            // The gateway's cancel or the node's own copy of the timeout, whichever comes first.
            let ended: Set<NodeActivity.Kind> = [
                .answered(ok: false, errorCode: .cancelled), .answered(ok: false, errorCode: .timeout),
            ]
            #expect(await eventually { fixture.activity.lines.contains { ended.contains($0.kind) } })
        }
    }

    @Test func aDuplicatedInvokeRunsOnce() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.full))
            defer { Task { await fixture.stop() } }
            await gateway.setDuplicateNodeInvokes(true)
            let counter = fixture.directory + "/counter"
            let run = try await fixture.invoke(
                "system.run", ["command": ["sh", "-c", .string("echo ran >> \(counter)")]])
            #expect(run?["payload"]?["exitCode"]?.intValue == 0)
            #expect(await eventually { fixture.activity.lines.contains { $0.kind == .duplicate } })
            let lines = try String(contentsOfFile: counter, encoding: .utf8).split(separator: "\n")
            #expect(lines == ["ran"])
            let results = await gateway.nodeInvokeResults()
            #expect(Set(results.compactMap { $0["id"]?.stringValue }).count == 1)
            #expect(Set(results).count == 1)
        }
    }

    @Test func theApprovalsFileRoundTripsWithCompareAndSet() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.deny))
            defer { Task { await fixture.stop() } }
            let first = try #require(try await fixture.invoke("system.execApprovals.get", [:])?["payload"])
            #expect(first["exists"]?.boolValue == true)
            let hash = try #require(first["hash"]?.stringValue)

            let updated = NodeFixture.policy(.allowlist, allow: ["/usr/bin/echo"])
            let set = try await fixture.invoke(
                "system.execApprovals.set", ["file": updated.json, "baseHash": .string(hash)])
            let newHash = try #require(set?["payload"]?["hash"]?.stringValue)
            #expect(newHash != hash)
            #expect(try fixture.approvals.snapshot().file == updated)

            await #expect {
                _ = try await fixture.invoke(
                    "system.execApprovals.set", ["file": NodeFixture.policy(.full).json, "baseHash": .string(hash)])
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message.hasPrefix("CONFLICT")
            }
            #expect(try fixture.approvals.snapshot().hash == newHash)
            let attributes = try FileManager.default.attributesOfItem(atPath: fixture.approvals.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test func badParamsAreAnInvalidRequest() async throws {
        try await withValidatedTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.deny))
            defer { Task { await fixture.stop() } }
            await #expect {
                _ = try await fixture.invoke("system.which", ["bins": 5])
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message.hasPrefix("INVALID_REQUEST")
            }
        }
    }
}
