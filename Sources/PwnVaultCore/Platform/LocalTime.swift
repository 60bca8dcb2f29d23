import Glibc
import FoundationEssentials

/// Dates as people read them in this machine's time zone, without ICU: `DateFormatter` loads ICU's
/// data (about 10 ms) the first time it formats, which `list` paid on every run.
public enum LocalTime {
    /// `2026-11-30 21:04` in the local time zone (the TZ environment variable, else /etc/localtime),
    /// as `DateFormatter` with `yyyy-MM-dd HH:mm` and en_US_POSIX wrote it.
    public static func minutes(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "????-??-?? ??:??" }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var year = "\(parts.tm_year + 1900)"
        while year.utf8.count < 4 { year = "0" + year }
        return "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// The local year, month, day, hour and minute of `date` (nil where the time zone cannot tell).
    public static func fields(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return nil }
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min))
    }
}
