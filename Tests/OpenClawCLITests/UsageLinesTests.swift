import OpenClawChat
import OpenClawProtocol
import Testing

@testable import OpenClawCLI

/// What `/usage` and a status line say from a session's reported usage.
@Suite("Terminal: usage lines")
struct UsageLinesTests {
    static var reported: SessionUsage {
        var usage = SessionUsage()
        usage.inputTokens = 1_200
        usage.outputTokens = 340
        usage.totalTokens = 41_000
        usage.contextTokens = 200_000
        usage.totalTokensFresh = true
        usage.estimatedCostUsd = 0.0213
        usage.model = "m\u{1B}[31m"
        return usage
    }

    @Test func everyReportedFieldHasALine() {
        let lines = UsageLines.lines(Self.reported)
        #expect(lines.prefix(3) == ["tokens: 1.2k in, 340 out", "context: 41k of 200k (21%)", "estimated cost: $0.02"])
        // The gateway's model name is shown, never its control characters.
        #expect(lines.last == "model: " + TerminalText.escapedLine("m\u{1B}[31m"))
        #expect(lines.last?.contains("\u{1B}") == false)
    }

    @Test func aStaleContextCountSaysSo() {
        var usage = Self.reported
        usage.totalTokensFresh = false
        #expect(UsageLines.lines(usage)[1] == "context: 41k of 200k, before the latest call")
    }

    @Test func theCompactPhraseNeedsSomethingToSay() {
        #expect(UsageLines.compact(Self.reported) == "ctx 41k/200k (21%) · $0.02")
        #expect(UsageLines.compact(SessionUsage()) == nil)
    }
}
