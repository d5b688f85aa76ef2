import Foundation
import OpenClawTestGateway
import Testing

/// The chat's commands as a person uses them, through the real program and a real gateway: tool cards
/// and reasoning on demand, the footer under each reply, `/new`, the session picker and `!command`.
@Suite("openclaw-chat: tool cards, footers, sessions and shell commands")
struct ChatCommandsCLITests {
    /// What the chat printed for `lines` typed one after another (piped, so each waits for its reply);
    /// the chat must end with status 0.
    private static func chat(_ common: [String], typing lines: [String]) async throws -> String {
        let result = try await CLIProcess.run(
            ["chat"] + common, stdin: (lines + ["/quit"]).joined(separator: "\n") + "\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return result.stdout
    }

    @Test func toolStepsExpandAndReasoningShowsOnlyWhenAskedFor() async throws {
        try await CLITests.withGateway { _, common in
            let out = try await Self.chat(common, typing: ["use a tool please", "/tools", "/think show", "/history 2"])
            // The live steps, one line each; the footer under the reply.
            #expect(out.contains("  ✓ thinking ("))
            #expect(out.contains("  ✓ exec: curl -s https://status.example.test/health ("))
            #expect(out.contains("  scripted-agent · thinking off · "), "output:\n\(out)")
            // /tools: the arguments and the result history gave.
            #expect(out.contains("      command: curl -s https://status.example.test/health"))
            #expect(out.contains("    → HTTP/1.1 200 OK\n      {\"status\":\"ok\"}"), "output:\n\(out)")
            // The reasoning is hidden while the reply streams and shown by /history after /think show.
            let reasoning = "The user wants a tool run; I will call exec."
            #expect(out.components(separatedBy: reasoning).count == 2, "output:\n\(out)")
            let shownAt = try #require(out.range(of: "reasoning is shown"))
            #expect(out[shownAt.upperBound...].contains(reasoning))
        }
    }

    @Test func newStartsTheSessionAfreshThroughTheGatewaysCommand() async throws {
        try await CLITests.withGateway { gateway, common in
            let out = try await Self.chat(common, typing: ["remember the blue door", "/new let us plan", "/history"])
            let started = try #require(out.range(of: "New session started."))
            // /history after /new: the old conversation is gone.
            let after = out[started.upperBound...]
            #expect(after.contains("you  /new let us plan"), "output:\n\(out)")
            #expect(!after.contains("blue door"), "output:\n\(out)")
            // The words after the command go with it, as the gateway continues with them.
            #expect(await gateway.sentUserMessages(sessionKey: "main") == ["/new let us plan"])
        }
    }

    @Test func sessionListsNumberedAndSwitchesByNumber() async throws {
        try await CLITests.withGateway { gateway, common in
            _ = try await CLIProcess.run(["send"] + common + ["--session", "work", "on the work session"])
            let out = try await Self.chat(common, typing: ["/session", "/session 9"])
            #expect(out.contains("● "), "output:\n\(out)")
            #expect(out.contains("/session N switches to one"))
            #expect(out.contains("no session 9: /session lists them"))
            let listed = out.split(separator: "\n").filter { $0.contains(". ") && $0.hasPrefix(" ") }
            let work = try #require(listed.first { $0.contains("work") }, "output:\n\(out)")
            let number = try #require(work.split(separator: ".").first?.split(separator: " ").last)
            // A number refers to a list shown in this chat: alone, it asks for the list first.
            let unlisted = try await Self.chat(common, typing: ["/session \(number)"])
            #expect(unlisted.contains("/session lists the sessions first"), "output:\n\(unlisted)")
            let switched = try await Self.chat(common, typing: ["/session", "/session \(number)", "/status"])
            #expect(switched.contains("switched to work"), "output:\n\(switched)")
            #expect(switched.contains("you  on the work session"))
            #expect(await gateway.sentUserMessages(sessionKey: "work") == ["on the work session"])
        }
    }

    @Test func aShellCommandRunsOnlyOnceAllowedAndItsOutputIsSentOnlyWhenAsked() async throws {
        try await CLITests.withGateway { gateway, common in
            let declined = try await Self.chat(common, typing: ["!echo never-ran-7", "no"])
            #expect(declined.contains("not run"))
            #expect(!declined.contains("\nnever-ran-7\n"), "output:\n\(declined)")

            let ran = try await Self.chat(
                common, typing: ["!echo shell-out-42; echo oops >&2; exit 3", "y", "y", "!echo again-9", "n"])
            #expect(ran.contains("\nshell-out-42\noops\n  exit 3\n"), "output:\n\(ran)")
            // Allowed once, the second command runs without asking; its output stays here.
            #expect(ran.contains("\nagain-9\n"))
            #expect(ran.contains("not sent"))
            let sent = await gateway.sentUserMessages(sessionKey: "main")
            #expect(sent.count == 1)
            #expect(
                sent.first?.hasPrefix("I ran `echo shell-out-42; echo oops >&2; exit 3` (exit 3):\n```text\n") == true)
            #expect(sent.first?.contains("shell-out-42\noops\n```") == true)
        }
    }
}
