import Foundation
import OpenClawProtocol
import Testing

@testable import OpenClawNode

/// Unit tables for the rules that decide what a command really is: wrappers, risky programs,
/// variables, argument patterns, the text an approver reads.
@Suite("Exec security rules")
struct ExecSecurityRulesTests {
    @Test(arguments: [
        (["timeout", "5", "sh", "-c", "x"], ["sh", "-c", "x"]),
        (["timeout", "-s", "KILL", "-k", "1", "5", "git", "status"], ["git", "status"]),
        (["timeout", "--signal=TERM", "5s", "ls"], ["ls"]),
        (["nice", "-n", "5", "ls"], ["ls"]), (["nice", "-n5", "ls"], ["ls"]), (["nice", "-10", "ls"], ["ls"]),
        (["nice", "--adjustment=3", "ls"], ["ls"]), (["nohup", "--", "ls"], ["ls"]),
        (["stdbuf", "-o0", "-eL", "ls"], ["ls"]), (["stdbuf", "--output=L", "ls"], ["ls"]),
        (["env", "-i", "A=1", "B=2", "ls"], ["ls"]), (["env", "-u", "HOME", "--", "ls"], ["ls"]),
        (["/usr/bin/env", "nice", "timeout", "3", "bash"], ["bash"]), (["time", "-p", "ls"], ["ls"]),
        (["env"], ["env"]), (["nice"], ["nice"]), (["ls", "-la"], ["ls", "-la"]),
    ])
    func wrappersAreLookedThrough(_ argv: [String], _ target: [String]) {
        guard case .resolved(let chain) = ExecWrapperResolver.resolve(argv) else {
            Issue.record("refused \(argv)")
            return
        }
        #expect(chain.target == target)
        #expect(Array(argv.dropFirst(chain.targetOffset)) == target)
    }

    @Test(arguments: [
        ["env", "-S", "sh -c x"], ["env", "--split-string=sh -c x"], ["env", "-C", "/tmp", "sh"],
        ["env", "--chdir=/tmp", "sh"], ["env", "--frobnicate", "sh"], ["nohup", "-x", "sh"], ["stdbuf", "-z", "sh"],
        ["nice", "-n"], ["timeout", "--what", "5", "sh"], ["timeout", "-s"],
        ["nice", "nice", "nice", "nice", "nice", "sh"],
    ])
    func wrappersThatCannotBeJudgedAreRefused(_ argv: [String]) {
        guard case .refused = ExecWrapperResolver.resolve(argv) else {
            Issue.record("looked through \(argv)")
            return
        }
    }

    @Test func envAssignmentsAreCollected() {
        guard case .resolved(let chain) = ExecWrapperResolver.resolve(["env", "GIT_PAGER=x", "A=1", "git", "log"])
        else {
            Issue.record("refused")
            return
        }
        #expect(chain.assignments == ["GIT_PAGER": "x", "A": "1"])
    }

    @Test(arguments: [
        (["bash", "-lc", "x"], "bash is a shell"), (["/usr/bin/dash"], "dash is a shell"),
        (["busybox", "sh"], "busybox is a shell"), (["python3.12", "-c", "x"], "python -c"),
        (["python3", "-Bc", "x"], "python -c"), (["perl", "-Mstrict", "-e", "x"], "perl -e"),
        (["perl", "-lnE", "x"], "perl -E"), (["ruby", "-e", "x"], "ruby -e"), (["node", "--eval=x"], "node --eval"),
        (["node", "-p", "x"], "node -p"), (["deno", "eval", "x"], "deno eval"), (["php", "-r", "x"], "php -r"),
        (["awk", "{print}"], "awk program"), (["gawk", "-e", "x"], "gawk -e"), (["sed", "s/a/b/"], "sed program"),
        (["find", ".", "-execdir", "x", ";"], "find -execdir"), (["make", "--eval=x"], "make --eval"),
        (["git", "-c", "core.pager=x", "log"], "git -c"), (["git", "rebase", "-x", "make"], "git rebase -x"),
        (["tar", "--to-command=x", "-xf", "a"], "tar --to-command"), (["rsync", "-e", "x", "a", "b"], "rsync -e"),
        (["ssh", "-o", "ProxyCommand=x", "h"], "ssh -o"), (["vim", "-c", "!x"], "vim -c"),
        (["sudo", "ls"], "sudo starts another program"), (["xargs", "ls"], "xargs starts another program"),
        (["setsid", "ls"], "setsid starts another program"),
    ])
    func riskyFormsAreRecognised(_ argv: [String], _ description: String) {
        let risk = ExecProgramRisk.of(argv, resolvedPath: nil)
        #expect(risk?.description.contains(description) == true, "\(argv): \(String(describing: risk))")
    }

    @Test(arguments: [
        ["python3", "script.py", "-c"], ["perl", "script.pl", "-e"], ["node", "app.js", "-e"],
        ["awk", "-f", "p.awk", "f"],
        ["sed", "-f", "s.sed", "f"], ["find", ".", "-name", "*.swift"], ["git", "status"], ["git", "add", "-u"],
        ["ls", "-c"], ["ssh", "host", "uptime"], ["tar", "-czf", "a.tgz", "dir"], ["make", "test"],
    ])
    func ordinaryUsesAreNotRisky(_ argv: [String]) {
        #expect(ExecProgramRisk.of(argv, resolvedPath: nil) == nil)
    }

    @Test func theResolvedNameCountsToo() {
        #expect(ExecProgramRisk.of(["/usr/bin/awk", "{print}"], resolvedPath: "/usr/bin/mawk") != nil)
        #expect(ExecProgramRisk.of(["./tool"], resolvedPath: "/usr/bin/bash") == .shell("bash"))
    }

    @Test func aWildcardEntryNeverCoversARiskyProgramButAnExactOneDoes() {
        let wildcard = ExecPolicyTests.policy(.allowlist, allow: ["/usr/bin/*"])
        #expect(
            wildcard.evaluate(
                resolvedPath: "/usr/bin/git", arguments: ["-c", "alias.x=!sh", "x"], agentId: nil, approval: nil)
                == .deny(.programNeedsExplicitEntry))
        // git runs code of its own (aliases, hooks, configuration): not even `git status` under a wildcard,
        // whoever asks the policy (the judge, or a caller of `evaluate` alone).
        #expect(
            wildcard.evaluate(resolvedPath: "/usr/bin/git", arguments: ["status"], agentId: nil, approval: nil)
                == .deny(.programNeedsExplicitEntry))
        #expect(
            wildcard.evaluate(resolvedPath: "/usr/bin/ls", arguments: ["-l"], agentId: nil, approval: nil)
                == .allow(.allowlist))
        let both = ExecPolicyTests.policy(.allowlist, allow: ["/usr/bin/*", "/usr/bin/git"])
        #expect(
            both.evaluate(
                resolvedPath: "/usr/bin/git", arguments: ["-c", "alias.x=!sh", "x"], agentId: nil, approval: nil)
                == .allow(.allowlist))
    }

    @Test func refusedVariablesAreNamedAndTheChildStartsSmall() {
        let refusal = ExecEnvironmentPolicy.refusal([
            "ld_preload": "x", "GIT_CONFIG_COUNT": "1", "PATH": "/tmp", "HOME": "/tmp", "PAGER": "x",
            "GIT_EXTERNAL_DIFF": "x", "MY_FLAG": "1", "LANG": "C", "A B": "1", "X": "a\0b",
        ])
        #expect(refusal.blocked == ["GIT_CONFIG_COUNT", "GIT_EXTERNAL_DIFF", "HOME", "PAGER", "PATH", "ld_preload"])
        #expect(refusal.invalid == ["A B", "X"])
        let child = ExecEnvironmentPolicy(passThrough: ["aws_profile"]).childEnvironment(
            node: [
                "HOME": "/home/me", "LC_TIME": "C", "OPENCLAW_GATEWAY_TOKEN": "secret", "SSH_AUTH_SOCK": "/s",
                "AWS_PROFILE": "dev", "PATH": "/evil",
            ], searchPath: "/usr/bin:/bin", request: ["MY_FLAG": "1"])
        #expect(
            child == [
                "HOME": "/home/me", "LC_TIME": "C", "AWS_PROFILE": "dev", "PATH": "/usr/bin:/bin", "MY_FLAG": "1",
            ])
    }

    @Test func argumentPatternsNeverCrossAnArgument() {
        #expect(ArgumentPattern("status").matches(["status"]))
        #expect(!ArgumentPattern("status").matches(["status", "-s"]))
        #expect(ArgumentPattern("log *").matches(["log", "--oneline"]))
        #expect(!ArgumentPattern("log *").matches(["log", "a", "b"]))
        #expect(!ArgumentPattern("log *").matches(["log x", "y"]))
        #expect(ArgumentPattern("log **").matches(["log", "a", "b"]))
        #expect(ArgumentPattern("log **").matches(["log"]))
        #expect(ArgumentPattern("-C * status").matches(["-C", "/a/b", "status"]))
        #expect(!ArgumentPattern("show *").matches(["show", "a;", "rm", "-rf"]))
    }

    @Test func globsHandleAMegabyteWithoutRecursion() {
        let huge = String(repeating: "a", count: 1_000_000)
        #expect(PathGlob("/x/*").matches("/x/" + huge))
        #expect(!PathGlob("/x/*b").matches("/x/" + huge))
        #expect(ArgumentPattern("*").matches([huge]))
        #expect(!ArgumentPattern("*a*a*a*b").matches([huge]))
    }

    @Test(arguments: [
        (["ls", "-la"], "ls -la"), (["echo", "a b"], "echo 'a b'"), (["echo", ""], "echo ''"),
        (["echo", "it's"], #"echo 'it'\''s'"#), (["echo", "a\nb"], #"echo $'a\nb'"#),
        (["echo", "x\u{1B}[2Jy"], #"echo $'x\x1B[2Jy'"#), (["echo", "abc\u{202E}def"], #"echo $'abc\u202Edef'"#),
        (["echo", "zero\u{200B}width"], #"echo $'zero\u200Bwidth'"#), (["echo", "日本"], "echo '日本'"),
    ])
    func theApproversTextIsUnambiguous(_ argv: [String], _ text: String) {
        #expect(CommandText.render(argv) == text)
    }

    @Test func differentArgvsNeverRenderAlike() {
        #expect(CommandText.render(["a b"]) != CommandText.render(["a", "b"]))
        #expect(CommandText.render(["a'", "b"]) != CommandText.render(["a' b"]))
    }

    @Test func rawCommandMustAgreeWithArgv() throws {
        func params(_ argv: [String], _ raw: String) throws -> SystemRunParams {
            try SystemRunParams(json: ["command": .array(argv.map(JSONValue.string)), "rawCommand": .string(raw)])
        }
        #expect(try params(["echo", "a b"], "echo 'a b'").rawCommandProblem == nil)
        #expect(try params(["echo", "a b"], #"echo "a b""#).rawCommandProblem == nil)
        #expect(try params(["sh", "-c", "ls -la"], "ls -la").rawCommandProblem == nil)
        #expect(try params(["sh", "-c", "rm -rf ~"], "ls -la").rawCommandProblem != nil)
        #expect(try params(["echo", "a", "b"], "echo 'a b'").rawCommandProblem != nil)
    }

    @Test func concurrentWritersCannotBothWin() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cas-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ExecApprovalsStore(path: directory + "/" + ExecApprovalsStore.fileName)
        try store.set(ExecApprovalsFile(), baseHash: nil)
        for round in 0..<20 {
            let base = try store.snapshot().hash
            let winners = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        var file = ExecApprovalsFile()
                        file.agents["main"] = ExecPolicySettings(
                            allowlist: [ExecAllowlistEntry(pattern: "/opt/\(round)/\(index)")])
                        return (try? store.set(file, baseHash: base)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    @Test func whichAnswersThePathOnPATH() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("which-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/tool", withDestinationPath: "/usr/bin/true")
        let resolver = ExecutableResolver(searchPath: directory)
        #expect(resolver.locate("tool", workingDirectory: nil) == directory + "/tool")
        #expect(resolver.resolve("tool", workingDirectory: nil) != directory + "/tool")
    }

    @Test func preparedPlansExpireAndAreUsedOnce() throws {
        let plans = PreparedPlans()
        let binding = ExecPlanBinding(try SystemRunParams(json: ["command": ["ls"]]))
        let start = ContinuousClock.now
        plans.record(binding, policyHash: "h1", at: start)
        #expect(plans.take(binding, policyHash: "h1", at: start) == .bound)
        #expect(plans.take(binding, policyHash: "h1", at: start) == .notPrepared)
        plans.record(binding, policyHash: "h1", at: start)
        #expect(plans.take(binding, policyHash: "h1", at: start + PreparedPlans.lifetime + .seconds(1)) == .expired)
        plans.record(binding, policyHash: "h1", at: start)
        #expect(plans.take(binding, policyHash: "h2", at: start) == .policyChanged)
        for index in 0..<(PreparedPlans.capacity + 10) {
            plans.record(
                ExecPlanBinding(try SystemRunParams(json: ["command": ["ls", .string("\(index)")]])), policyHash: "h")
        }
        #expect(plans.count == PreparedPlans.capacity)
        let withEnv = ExecPlanBinding(try SystemRunParams(json: ["command": ["ls"], "env": ["A": "1"]]))
        let otherValue = ExecPlanBinding(try SystemRunParams(json: ["command": ["ls"], "env": ["A": "2"]]))
        #expect(withEnv != otherValue && withEnv != binding)
    }
}
