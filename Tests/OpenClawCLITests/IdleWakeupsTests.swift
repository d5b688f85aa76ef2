import Foundation
import OpenClawTestGateway
import Testing

/// An idle chat sleeps: no thread wakes up to poll stdin or the view model while nothing happens.
@Suite("openclaw-chat: idle")
struct IdleWakeupsTests {
    /// Context switches of every thread of `pid` so far (each wake-up is one), from `/proc`.
    static func contextSwitches(of pid: pid_t) -> Int? {
        let directory = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var total = 0
        for thread in threads {
            guard let status = try? String(contentsOfFile: "\(directory)/\(thread)/status", encoding: .utf8) else {
                continue
            }
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
    func anIdleChatWakesUpAtMostOnceASecond() async throws {
        try await ChatScreenTests.withChat { chat in
            try await chat.waitForScreen("the prompt") { $0.cursorLine == "›" }
            try await Task.sleep(for: .milliseconds(500))
            let start = try #require(Self.contextSwitches(of: chat.pid))
            try await Task.sleep(for: .seconds(3))
            let end = try #require(Self.contextSwitches(of: chat.pid))
            // Polling stdin and the view model made 42 in 3 s; what is left is the connection's keep-alive
            // (3 on a quiet machine; a loaded one splits some wake-ups in two).
            #expect(end - start <= 10, "\(end - start) wake-ups in 3 s of idling")
        }
    }

    /// A reply that pauses mid-text: nothing to redraw, no bound to check, so nothing wakes the chat
    /// (following a run used to wake four times a second to re-check).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
    func aReplyPausingMidTextDoesNotWakeTheChat() async throws {
        let agent = ScriptedAgent.custom { _ in
            AgentScript(steps: [.say("Let me think about that"), .pause(ms: 6_000), .say(" done.")], chunkSize: 64)
        }
        try await ChatScreenTests.withChat(agent: agent) { chat in
            chat.type("pause please", mode: .terminal)
            try await chat.waitForScreen("the text before the pause") { screen in
                screen.transcript.contains { $0.contains("Let me think about that") }
            }
            try await Task.sleep(for: .milliseconds(500))
            let start = try #require(Self.contextSwitches(of: chat.pid))
            try await Task.sleep(for: .seconds(3))
            let end = try #require(Self.contextSwitches(of: chat.pid))
            #expect(end - start <= 8, "\(end - start) wake-ups in 3 s of a paused reply")
            try await chat.waitFor("done.")
        }
    }
}
