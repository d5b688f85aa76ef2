import OpenClawPresentation
import OpenClawProtocol
import Testing

@testable import OpenClawChat

/// The one vocabulary the terminal and the app use for what the agent is doing.
@Suite("Activity wording and durations")
struct ActivityTextTests {
    @Test func durationsReadNaturally() {
        #expect(ActivityText.duration(milliseconds: 50) == "0.1 s")
        #expect(ActivityText.duration(milliseconds: 2_140) == "2.1 s")
        #expect(ActivityText.duration(milliseconds: -5) == "0.0 s")
        #expect(ActivityText.duration(milliseconds: 59_949) == "59.9 s")
        #expect(ActivityText.duration(milliseconds: 125_000) == "2 min 5 s")
    }

    @Test func aRunningStepSaysWhatItDoes() {
        let tool = ActivityStep(
            id: "t", kind: .tool(name: "exec"), status: .running, arguments: ["command": "curl -s https://example.com"])
        #expect(ActivityText.running(tool) == "running \(tool.summary(limit: 60))")
        #expect(ActivityText.running(tool).hasPrefix("running exec"))
        let thinking = ActivityStep(id: "k", kind: .thinking, status: .running, thinking: "Let me see")
        #expect(ActivityText.running(thinking) == "thinking…")
    }

    @Test func beforeAnyStepThePhaseIsShown() {
        #expect(ActivityText.waiting(phase: "tool_call") == "tool call…")
        #expect(ActivityText.waiting(phase: nil) == "thinking…")
    }
}
