import Foundation
import Testing

@testable import OpenClawCLI

@Suite("Local times without a formatter per message")
struct LocalTimeTextTests {
    /// Times across years, months, a leap day, before 1970, and both sides of midnight.
    static let samples: [Int] = [
        0, 1_767_225_600_000, 1_767_225_599_999, 1_709_210_096_000, 1_730_000_000_123, 1_743_300_000_000,
        951_782_400_000, -86_400_000 - 1, 4_102_444_799_000,
    ]

    static func foundation(_ format: String, _ ms: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = format
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    @Test(arguments: samples)
    func agreesWithFoundationInTheLocalZone(ms: Int) {
        #expect(LocalTimeText.hourMinute(ms: ms) == Self.foundation("HH:mm", ms))
        #expect(LocalTimeText.dateTime(ms: ms) == Self.foundation("yyyy-MM-dd HH:mm", ms))
        #expect(SearchOutput.localTime(ms: ms) == LocalTimeText.dateTime(ms: ms))
    }
}
