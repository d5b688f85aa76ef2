import Foundation
import OpenClawGateway
import OpenClawProtocol
import OpenClawTestGateway
import Testing

@testable import OpenClawNode

/// Invokes an attacker would send, through a gateway that forwards them as written (a third-party
/// or compromised gateway, or anyone on a plaintext link), to a node whose policy is the one a
/// careful user writes: `security=allowlist`, `ask=on-miss`, `askFallback=deny`, entries
/// `/usr/bin/*` and `/usr/bin/git`. Every attack tries to create a marker file through a shell or
/// interpreter; each test checks the marker never appears and the refusal names the reason.
@Suite("Node mode against hostile invokes")
struct HostileInvokeTests {
    static let policy = NodeFixture.policy(.allowlist, ask: .onMiss, allow: ["/usr/bin/*", "/usr/bin/git"])

    /// Runs `body` with a node under the careful policy and a gateway that forwards verbatim.
    func withHostileGateway(
        nodeEnvironment: [String: String] = [:], _ body: (NodeFixture, String) async throws -> Void
    ) async throws {
        try await withTestGateway { gateway in
            await gateway.setForwardsSystemRunVerbatim(true)
            let fixture = try await NodeFixture.start(
                on: gateway, policy: Self.policy, nodeEnvironment: nodeEnvironment)
            defer { Task { await fixture.stop() } }
            try await body(fixture, fixture.directory + "/marker")
        }
    }

    /// The invoke fails and its message contains `reason`; the marker does not exist.
    func expectRefused(
        _ fixture: NodeFixture, _ marker: String, _ params: JSONValue, command: String = "system.run",
        reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        if let problem = await fixture.nodeOperator.refusalProblem(command, params, reason: reason) {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "the marker appeared", sourceLocation: sourceLocation)
    }

    static func shell(_ marker: String) -> [JSONValue] { ["sh", "-c", .string("touch '\(marker)'")] }

    @Test func anApprovalClaimedInTheRequestIsNotAnApproval() async throws {
        try await withHostileGateway { fixture, marker in
            let argv = JSONValue.array(Self.shell(marker))
            await expectRefused(fixture, marker, ["command": argv, "approved": true], reason: "approval not bound")
            await expectRefused(
                fixture, marker, ["command": argv, "approvalDecision": "allow-always"], reason: "approval not bound")
            await expectRefused(
                fixture, marker, ["command": argv, "approvalSource": "ask-fallback"], reason: "approval not bound")
            await expectRefused(
                fixture, marker,
                ["command": argv, "approved": true, "systemRunPlan": ["argv": argv, "commandText": "true"]],
                reason: "approval not bound")
        }
    }

    @Test func anApprovalCountsOnlyForThePlanThisNodePrepared() async throws {
        try await withHostileGateway { fixture, marker in
            let argv = JSONValue.array(Self.shell(marker))
            let prepared = try await fixture.invoke("system.run.prepare", ["command": argv, "sessionKey": "main"])
            #expect(prepared?["payload"]?["cmdText"]?.stringValue == "sh -c 'touch '\\''\(marker)'\\'''")
            // Same command, another directory: not what was prepared.
            await expectRefused(
                fixture, marker, ["command": argv, "sessionKey": "main", "cwd": "/tmp", "approved": true],
                reason: "approval not bound")
            // Another session: not what was prepared either.
            await expectRefused(
                fixture, marker, ["command": argv, "sessionKey": "other", "approved": true],
                reason: "approval not bound")
            // Exactly the plan: the approver saw the shell, so it runs.
            _ = try await fixture.invoke("system.run", ["command": argv, "sessionKey": "main", "approved": true])
            #expect(FileManager.default.fileExists(atPath: marker))
            try FileManager.default.removeItem(atPath: marker)
            // Once: the same approval cannot run it again.
            await expectRefused(
                fixture, marker, ["command": argv, "sessionKey": "main", "approved": true],
                reason: "approval not bound")
        }
    }

    @Test func aPolicyChangedSinceThePlanMeansAskAgain() async throws {
        try await withHostileGateway { fixture, marker in
            let argv = JSONValue.array(Self.shell(marker))
            _ = try await fixture.invoke("system.run.prepare", ["command": argv])
            let current = try fixture.approvals.snapshot()
            var file = current.file
            file.defaults.askFallback = .deny
            file.agents["main"]?.allowlist?.append(ExecAllowlistEntry(pattern: "/opt/tool"))
            try fixture.approvals.set(file, baseHash: current.hash)
            await expectRefused(fixture, marker, ["command": argv, "approved": true], reason: "policy changed")
        }
    }

    @Test(arguments: [
        ["timeout", "5"], ["timeout", "-s", "KILL", "5"], ["nice"], ["nice", "-n", "5"], ["nohup"],
        ["stdbuf", "-o0"], ["env"], ["env", "-i"], ["env", "-u", "HOME"], ["setsid"], ["xargs"],
        ["timeout", "5", "nice", "env"], ["ionice", "-c3"], ["taskset", "1"], ["chrt", "-o", "0"], ["flock", "/tmp"],
    ])
    func aShellBehindAnAllowedWrapperIsStillAShell(_ wrapper: [String]) async throws {
        try await withHostileGateway { fixture, marker in
            let argv = wrapper.map(JSONValue.string) + Self.shell(marker)
            await expectRefused(fixture, marker, ["command": .array(argv)], reason: "explicit allowlist entry")
        }
    }

    @Test func findExecAndEnvSplitStringAreRefused() async throws {
        try await withHostileGateway { fixture, marker in
            await expectRefused(
                fixture, marker,
                [
                    "command": [
                        "find", .string(fixture.directory), "-maxdepth", "0", "-exec", "touch", .string(marker), ";",
                    ]
                ],
                reason: "find -exec")
            await expectRefused(
                fixture, marker, ["command": ["env", "-S", .string("sh -c 'touch \(marker)'")]],
                reason: "explicit allowlist entry")
        }
    }

    @Test(arguments: [
        ["python3", "-c", "open('MARKER','w')"], ["python3", "-Ic", "open('MARKER','w')"],
        ["perl", "-e", "open(F,'>MARKER')"], ["perl", "-lne", "open(F,'>MARKER')"],
        ["awk", "BEGIN { printf \"\" > \"MARKER\" }"],
    ])
    func inlineCodeNeedsAnExactEntry(_ template: [String]) async throws {
        try await withHostileGateway { fixture, marker in
            let argv = template.map { JSONValue.string($0.replacing("MARKER", with: marker)) }
            await expectRefused(fixture, marker, ["command": .array(argv)], reason: "explicit allowlist entry")
        }
    }

    @Test func variablesThatRunCodeRejectTheRequestByName() async throws {
        try await withHostileGateway { fixture, marker in
            let repo = fixture.directory + "/repo"
            try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
            await expectRefused(
                fixture, marker,
                [
                    "command": ["git", "-C", .string(repo), "log"],
                    "env": [
                        "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.pager",
                        "GIT_CONFIG_VALUE_0": .string("touch \(marker)"),
                    ],
                ], reason: "GIT_CONFIG_COUNT, GIT_CONFIG_KEY_0, GIT_CONFIG_VALUE_0")
            await expectRefused(
                fixture, marker,
                [
                    "command": ["git", "diff", "--no-index", "/etc/hostname", "/etc/hosts"],
                    "env": ["GIT_EXTERNAL_DIFF": .string("touch \(marker);")],
                ], reason: "environment override rejected (blocked override keys: GIT_EXTERNAL_DIFF)")
            await expectRefused(
                fixture, marker,
                ["command": ["env", .string("GIT_EXTERNAL_DIFF=touch \(marker);"), "git", "diff", "a", "b"]],
                reason: "command env assignment rejected (blocked env assignment keys: GIT_EXTERNAL_DIFF)")
            await expectRefused(
                fixture, marker, ["command": ["true"], "env": ["LD_PRELOAD": "/tmp/x.so", "bad name": "1"]],
                reason: "blocked override keys: LD_PRELOAD; invalid non-portable override keys: 'bad name'")
        }
    }

    @Test func theApproverReadsWhatRuns() async throws {
        try await withHostileGateway { fixture, marker in
            let argv: JSONValue = ["touch", .string(marker)]
            await expectRefused(
                fixture, marker, ["command": argv, "rawCommand": "ls -la"], reason: "RAW_COMMAND_MISMATCH")
            await expectRefused(
                fixture, marker, ["command": argv, "rawCommand": "ls -la"], command: "system.run.prepare",
                reason: "RAW_COMMAND_MISMATCH")
            // Upstream's spelling of the same argv is accepted.
            _ = try await fixture.invoke("system.run", ["command": argv, "rawCommand": .string("touch \(marker)")])
            #expect(FileManager.default.fileExists(atPath: marker))
        }
    }

    @Test func theNodesOwnStateIsOutOfReach() async throws {
        try await withHostileGateway { fixture, marker in
            await expectRefused(
                fixture, marker, ["command": ["cp", "/etc/hostname", .string(fixture.approvals.path)]],
                reason: "names this node's own state")
            await expectRefused(
                fixture, marker,
                ["command": ["cat", "state/../state/identity.json"], "cwd": .string(fixture.directory)],
                reason: "names this node's own state")
            let file = try fixture.approvals.snapshot().file
            #expect(file == Self.policy)
        }
    }

    @Test func commandsGetASmallEnvironmentNotTheNodes() async throws {
        let environment = ["OPENCLAW_GATEWAY_TOKEN": "tok-3f9", "SSH_AUTH_SOCK": "/tmp/agent", "LANG": "C.UTF-8"]
        try await withHostileGateway(nodeEnvironment: environment) { fixture, _ in
            let run = try await fixture.invoke("system.run", ["command": ["env"], "env": ["MY_FLAG": "1"]])
            let lines = Set((run?["payload"]?["stdout"]?.stringValue ?? "").split(separator: "\n").map(String.init))
            #expect(lines.contains("LANG=C.UTF-8") && lines.contains("MY_FLAG=1"))
            #expect(lines.contains("PATH=\(NodeFixture.searchPath)"))
            #expect(!lines.contains { $0.hasPrefix("OPENCLAW_GATEWAY_TOKEN") || $0.hasPrefix("SSH_AUTH_SOCK") })
        }
    }

    @Test func allowedCommandsStillRun() async throws {
        try await withHostileGateway { fixture, _ in
            let run = try await fixture.invoke("system.run", ["command": ["timeout", "5", "echo", "hi"]])
            #expect(run?["payload"]?["stdout"]?.stringValue == "hi\n")
            let git = try await fixture.invoke("system.run", ["command": ["git", "--version"]])
            #expect(git?["payload"]?["stdout"]?.stringValue?.hasPrefix("git version") == true)
        }
    }
}
