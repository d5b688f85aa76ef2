import OpenClawNode
import Testing

@Suite("Exec approvals policy")
struct ExecPolicyTests {
    static func policy(
        _ security: ExecSecurity, ask: ExecAsk = .off, fallback: ExecSecurity = .deny, allow: [String] = []
    ) -> ExecPolicy {
        ExecPolicy(
            file: ExecApprovalsFile(
                defaults: ExecPolicySettings(security: security, ask: ask, askFallback: fallback),
                agents: ["main": ExecPolicySettings(allowlist: allow.map { ExecAllowlistEntry(pattern: $0) })]),
            home: "/home/me")
    }

    @Test func denyRefusesEverythingEvenWhenApproved() {
        let decision = Self.policy(.deny).evaluate(
            resolvedPath: "/usr/bin/ls", arguments: [], agentId: nil, approval: .allowOnce)
        #expect(decision == .deny(.securityDeny))
    }

    @Test func allowlistAllowsMatchesAndRefusesMisses() {
        let policy = Self.policy(.allowlist, allow: ["/usr/bin/git", "~/bin/*"])
        #expect(
            policy.evaluate(resolvedPath: "/usr/bin/git", arguments: [], agentId: nil, approval: nil)
                == .allow(.allowlist))
        #expect(
            policy.evaluate(resolvedPath: "/USR/BIN/GIT", arguments: [], agentId: nil, approval: nil)
                == .allow(.allowlist))
        // A wildcard covers only plain programs the system installed: a tool of one's own needs its name.
        #expect(
            policy.evaluate(resolvedPath: "/home/me/bin/tool", arguments: [], agentId: nil, approval: nil)
                == .deny(.programNeedsExplicitEntry))
        #expect(
            Self.policy(.allowlist, allow: ["~/bin/tool"]).evaluate(
                resolvedPath: "/home/me/bin/tool", arguments: [], agentId: nil, approval: nil) == .allow(.allowlist))
        #expect(
            policy.evaluate(resolvedPath: "/home/me/bin/sub/tool", arguments: [], agentId: nil, approval: nil)
                == .deny(.allowlistMiss))
        #expect(
            policy.evaluate(resolvedPath: "/usr/bin/rm", arguments: [], agentId: nil, approval: nil)
                == .deny(.allowlistMiss))
        #expect(
            policy.evaluate(resolvedPath: nil, arguments: [], agentId: nil, approval: nil) == .deny(.executableNotFound)
        )
    }

    @Test func bareNamesInTheAllowlistMatchNothing() {
        let policy = Self.policy(.allowlist, allow: ["git"])
        #expect(
            policy.evaluate(resolvedPath: "/usr/bin/git", arguments: [], agentId: nil, approval: nil)
                == .deny(.allowlistMiss))
    }

    @Test func aShellNeedsAnEntryNamingIt() {
        let wildcard = Self.policy(.allowlist, allow: ["/usr/bin/*"])
        #expect(
            wildcard.evaluate(
                resolvedPath: "/usr/bin/bash", arguments: ["-c", "rm -rf /"], agentId: nil, approval: nil)
                == .deny(.shellNeedsExplicitEntry))
        let explicit = Self.policy(.allowlist, allow: ["/usr/bin/bash"])
        #expect(
            explicit.evaluate(resolvedPath: "/usr/bin/bash", arguments: [], agentId: nil, approval: nil)
                == .allow(.allowlist))
    }

    @Test func askingFallsBackWhenNobodyApproved() {
        let onMiss = Self.policy(.allowlist, ask: .onMiss, fallback: .deny)
        #expect(
            onMiss.evaluate(resolvedPath: "/usr/bin/rm", arguments: [], agentId: nil, approval: nil)
                == .deny(.approvalRequired))
        #expect(
            onMiss.evaluate(resolvedPath: "/usr/bin/rm", arguments: [], agentId: nil, approval: .allowOnce)
                == .allow(.approved))
        #expect(
            onMiss.evaluate(resolvedPath: "/usr/bin/rm", arguments: [], agentId: nil, approval: .deny)
                == .deny(.userDenied))
        let always = Self.policy(.full, ask: .always, fallback: .deny)
        #expect(
            always.evaluate(resolvedPath: "/usr/bin/ls", arguments: [], agentId: nil, approval: nil)
                == .deny(.approvalRequired))
    }

    @Test func argPatternsNarrowAnEntry() {
        var entry = ExecAllowlistEntry(pattern: "/usr/bin/git")
        entry.argPattern = "status **"
        let policy = ExecPolicy(
            file: ExecApprovalsFile(
                defaults: ExecPolicySettings(security: .allowlist, ask: .off),
                agents: ["main": ExecPolicySettings(allowlist: [entry])]))
        #expect(
            policy.evaluate(resolvedPath: "/usr/bin/git", arguments: ["status", "-s"], agentId: nil, approval: nil)
                .isAllowed)
        #expect(
            !policy.evaluate(resolvedPath: "/usr/bin/git", arguments: ["push"], agentId: nil, approval: nil).isAllowed)
    }

    @Test func aMissingFileDeniesEverything() {
        let policy = ExecPolicy(file: ExecApprovalsFile())
        #expect(
            policy.evaluate(resolvedPath: "/usr/bin/ls", arguments: [], agentId: nil, approval: nil)
                == .deny(.securityDeny))
    }

    @Test func globsStayWithinComponentsUnlessDoubled() {
        #expect(PathGlob("/opt/*/bin/tool").matches("/opt/a/bin/tool"))
        #expect(!PathGlob("/opt/*/bin/tool").matches("/opt/a/b/bin/tool"))
        #expect(PathGlob("/opt/**/tool").matches("/opt/a/b/bin/tool"))
        #expect(PathGlob("/usr/bin/python3.?").matches("/usr/bin/python3.9"))
        #expect(!PathGlob(String(repeating: "*a", count: 40)).matches(String(repeating: "a", count: 200) + "b"))
    }
}
