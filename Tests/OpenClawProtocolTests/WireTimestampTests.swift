import OpenClawProtocol
import Testing

@Suite("Wire timestamps")
struct WireTimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01", 0),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("2025-01-19T05:20:00.123Z", 1_737_264_000_123),
        ("2025-01-19T05:20:00.123456789Z", 1_737_264_000_123),
        ("2025-01-19 05:20:00", 1_737_264_000_000),
        ("2025-01-19t05:20:00z", 1_737_264_000_000),
        ("2025-01-19T05:20Z", 1_737_264_000_000),
        ("2025-01-19T00:20:00-0500", 1_737_264_000_000),
        ("2025-01-19T06:20:00+01", 1_737_264_000_000),
        ("1969-12-31T23:59:59Z", -1000),
    ])
    func parsesValidForms(text: String, expected: Int) {
        #expect(WireTimestamp.iso8601EpochMilliseconds(text) == expected)
    }

    @Test(arguments: [
        "", "2025", "2025-13-01", "2025-02-30", "2025-01-19T25:00:00Z", "2025-01-19T05:20:00+25:00",
        "2025-01-19T05:20:00Zjunk", "2025-01-19T05", "19/01/2025",
    ])
    func rejectsMalformed(text: String) {
        #expect(WireTimestamp.iso8601EpochMilliseconds(text) == nil)
    }

    @Test func readsNumbersAndNumericStrings() {
        #expect(WireTimestamp.epochMilliseconds(.int(42)) == 42)
        #expect(WireTimestamp.epochMilliseconds(.double(42.9)) == 42)
        #expect(WireTimestamp.epochMilliseconds(.string("1737264000000")) == 1_737_264_000_000)
        #expect(WireTimestamp.epochMilliseconds(.double(.nan)) == nil)
        #expect(WireTimestamp.epochMilliseconds(.bool(true)) == nil)
        #expect(WireTimestamp.epochMilliseconds(nil) == nil)
    }
}
