import OpenClawChat
import OpenClawProtocol
import Testing

/// Merging `sessions.changed` deltas into a session's usage, and how it reads.
@Suite("Session usage")
struct SessionUsageTests {
    @Test func omittedFieldsStayAndNullClears() {
        var usage = SessionUsage()
        usage = usage.merging(
            SessionUsageChange(
                sessionKey: "s", inputTokens: .set(10), totalTokens: .set(50_000), contextTokens: .set(200_000),
                model: .set("m")))
        usage = usage.merging(SessionUsageChange(sessionKey: "s", inputTokens: .set(20), model: .cleared))
        #expect(usage.inputTokens == 20)
        #expect(usage.totalTokens == 50_000)
        #expect(usage.model == nil)
        #expect(usage.contextFraction == 0.25)
    }

    @Test func aStaleCountShowsNoMeter() {
        var usage = SessionUsage()
        usage.totalTokens = 10
        usage.contextTokens = 100
        usage.totalTokensFresh = false
        #expect(usage.contextFraction == nil)
        usage.totalTokensFresh = nil
        #expect(usage.contextFraction == 0.1)
        usage.contextTokens = 0
        #expect(usage.contextFraction == nil)
    }

    @Test(arguments: [
        (950, "950"), (1_000, "1k"), (1_250, "1.3k"), (41_400, "41k"), (999_499, "999k"), (999_500, "1M"),
        (1_234_567, "1.2M"),
    ])
    func tokenCountsReadShort(count: Int, text: String) {
        #expect(TokenCount.short(count) == text)
    }

    @Test(arguments: [(0.0, "$0.00"), (0.0042, "$0.0042"), (0.25, "$0.25"), (12.5, "$12.50"), (-1.0, "?")])
    func dollarsRead(amount: Double, text: String) {
        #expect(TokenCount.dollars(amount) == text)
    }
}
