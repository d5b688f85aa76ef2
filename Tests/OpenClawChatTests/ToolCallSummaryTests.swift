import OpenClawChat
import OpenClawProtocol
import Testing

@Suite("Tool call summaries")
struct ToolCallSummaryTests {
    @Test func picksTheMostTellingArgument() {
        #expect(ToolCallSummary.line(name: "exec", arguments: ["command": "ls -la", "timeout": 5]) == "exec: ls -la")
        #expect(
            ToolCallSummary.line(name: "web_fetch", arguments: ["maxChars": 100, "url": "https://x.y"])
                == "web_fetch: https://x.y")
        #expect(ToolCallSummary.line(name: "exec", arguments: ["command": ["git", "status"]]) == "exec: git status")
        #expect(ToolCallSummary.line(name: "custom", arguments: ["zeta": "last", "alpha": "first"]) == "custom: first")
    }

    @Test func fallsBackToCompactJSONAndToTheBareName() {
        #expect(ToolCallSummary.line(name: "calc", arguments: ["a": 1, "b": true]) == #"calc: {"a":1,"b":true}"#)
        #expect(ToolCallSummary.line(name: "noop", arguments: .object([:])) == "noop")
        #expect(ToolCallSummary.line(name: "noop", arguments: nil) == "noop")
        #expect(ToolCallSummary.line(name: "raw", arguments: "already text") == "raw: already text")
    }

    @Test func collapsesWhitespaceAndTruncates() {
        let script: JSONValue = ["command": "set -e\n\n  cd /tmp\tthen  run   it\n"]
        #expect(ToolCallSummary.line(name: "exec", arguments: script) == "exec: set -e cd /tmp then run it")
        let long: JSONValue = ["command": .string("curl -s https://example.com/" + String(repeating: "a", count: 500))]
        let line = ToolCallSummary.line(name: "exec", arguments: long, limit: 30)
        #expect(line == "exec: curl -s https://example…")
        #expect(line.count == 30)
    }
}
