#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times in the local time zone as the terminal prints them (`09:30`, `2026-11-21 09:30`), built from
/// `localtime_r` without a formatter object.
///
/// `history` and `search` print one time per message: a new `DateFormatter` each time cost about 80 µs
/// (most of a printed message), and a shared one is a non-`Sendable` object behind a lock. The C
/// library's conversion reads the zone once (`tzset`) and then costs well under a microsecond.
enum LocalTimeText {
    /// `tzset()` once per process, before the first conversion (`localtime_r` need not call it).
    private static let zoneLoaded: Bool = {
        tzset()
        return true
    }()

    /// `HH:mm`.
    static func hourMinute(ms: Int) -> String {
        guard let parts = parts(ms: ms) else { return "--:--" }
        return two(parts.tm_hour) + ":" + two(parts.tm_min)
    }

    /// `yyyy-MM-dd HH:mm`.
    static func dateTime(ms: Int) -> String {
        guard let parts = parts(ms: ms) else { return "----------" + " --:--" }
        return String(parts.tm_year + 1900) + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + " "
            + two(parts.tm_hour) + ":" + two(parts.tm_min)
    }

    private static func parts(ms: Int) -> tm? {
        _ = zoneLoaded
        // Floor division: a time before 1970 still falls in the right second.
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        var result = tm()
        guard localtime_r(&seconds, &result) != nil else { return nil }
        return result
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
