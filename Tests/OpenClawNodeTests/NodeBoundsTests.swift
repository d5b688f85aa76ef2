import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawNode

/// Limits that hold whatever the gateway sends: how many commands run at once, how long a command
/// whose detached child keeps its output open can hold an invoke, and what the gateway forwards.
@Suite("Node mode bounds")
struct NodeBoundsTests {
    @Test func invokesPastTheLimitAreRefusedAtOnce() async throws {
        try await withTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.full), maxConcurrentInvokes: 2)
            defer { Task { await fixture.stop() } }
            let sleepers = (0..<2).map { _ in
                Task { try? await fixture.invoke("system.run", ["command": ["sleep", "3"]]) }
            }
            #expect(await eventually { await gateway.pendingNodeInvokes().count == 2 })
            try await Task.sleep(for: .milliseconds(300))
            let start = ContinuousClock.now
            await #expect {
                _ = try await fixture.invoke("system.run", ["command": ["true"]])
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message.contains("NODE_BUSY")
            }
            #expect(ContinuousClock.now - start < .seconds(2))
            for sleeper in sleepers { _ = await sleeper.value }
            let after = try await fixture.invoke("system.run", ["command": ["echo", "free"]])
            #expect(after?["payload"]?["stdout"]?.stringValue == "free\n")
        }
    }

    @Test func aDetachedChildHoldingTheOutputCannotHoldTheInvoke() async throws {
        try await withTestGateway { gateway in
            let fixture = try await NodeFixture.start(on: gateway, policy: NodeFixture.policy(.full))
            defer { Task { await fixture.stop() } }
            let pidFile = fixture.directory + "/detached.pid"
            let script = "setsid sleep 20 & echo $! > \(pidFile); echo started"
            let start = ContinuousClock.now
            let run = try await fixture.invoke(
                "system.run", ["command": ["sh", "-c", .string(script)], "timeoutMs": 2000], timeoutMs: 15_000)
            #expect(ContinuousClock.now - start < .seconds(6))
            #expect(run?["payload"]?["stdout"]?.stringValue?.hasPrefix("started") == true)
            let text = try String(contentsOfFile: pidFile, encoding: .utf8)
            let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            // The output pipe the detached child still holds: once it is gone, the node holds no end of it
            // either (this pipe, not a count of all of them: other tests open pipes meanwhile).
            let held = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/1")
            kill(pid, SIGKILL)
            #expect(held.hasPrefix("pipe:"))
            #expect(await eventually { !openPipes().contains(held) }, "\(held) still open here")
        }
    }

    @Test func theTestGatewayStripsApprovalClaimsItDidNotRecord() async throws {
        try await withTestGateway { gateway in
            let fixture = try await NodeFixture.start(
                on: gateway, policy: NodeFixture.policy(.allowlist, ask: .onMiss, allow: ["/usr/bin/echo"]))
            defer { Task { await fixture.stop() } }
            await #expect {
                _ = try await fixture.invoke("system.run", ["command": ["sh", "-c", "true"], "approved": true])
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message == "approval override requires params.runId"
            }
            await #expect {
                _ = try await fixture.invoke(
                    "system.run", ["command": ["sh", "-c", "true"], "approvalDecision": "allow-once", "runId": "r1"])
            } throws: { error in
                guard case .requestFailed(_, let shape)? = error as? GatewayError else { return false }
                return shape.message == "unknown or expired approval id"
            }
            // Fields a gateway does not forward never reach the node (a plan here would be a claim).
            let run = try await fixture.invoke(
                "system.run", ["command": ["echo", "ok"], "systemRunPlan": ["argv": ["echo", "ok"]]])
            #expect(run?["payload"]?["stdout"]?.stringValue == "ok\n")
        }
    }
}

/// Pipes this process holds open: a child's output pipes, once the invoke is over, must not be among
/// them. Other descriptors are not counted: event loops and the process monitor open theirs lazily.
func openPipes() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap { name in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)).flatMap {
            $0.hasPrefix("pipe:") ? $0 : nil
        }
    }
}
