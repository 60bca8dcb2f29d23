import FoundationEssentials

/// Lenient parsing and strict formatting of the dates HIBP sends, without `DateFormatter`
/// (not `Sendable`, locale-sensitive, and slow over a catalog of ~900 breaches × 2 dates).
///
/// Accepted: `2015-10-26T23:35:45Z`, with fractional seconds, with a `±HH:MM`/`±HHMM` offset,
/// without a zone (read as UTC), with a space instead of `T`, or a bare `2015-10-26` (midnight UTC).
/// Anything else yields nil: a date HIBP garbles must not make a whole breach unreadable.
enum HIBPTimestamp {
    /// The instant written in `text`, or nil when it is not an ISO 8601 date or date-time.
    static func parse(_ text: String) -> Date? {
        let b = Array(text.trimmingWhitespace().utf8)
        guard let day = BreachDay(utf8: b) else { return nil }
        var seconds = Double(day.daysSinceEpoch) * 86_400
        if b.count == 10 { return Date(timeIntervalSince1970: seconds) }
        guard b.count >= 19, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let hh = digits(b, 11, 2), let mm = digits(b, 14, 2), let ss = digits(b, 17, 2),
              hh < 24, mm < 60, ss < 61 else { return nil }
        seconds += Double(hh * 3600 + mm * 60 + ss)
        var i = 19
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var fraction = 0.0, scale = 0.1
            let start = i
            while i < b.count, let d = digit(b[i]) { fraction += Double(d) * scale; scale /= 10; i += 1 }
            guard i > start else { return nil }
            seconds += fraction
        }
        if i == b.count { return Date(timeIntervalSince1970: seconds) }
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Double = b[i] == UInt8(ascii: "+") ? 1 : -1
            let rest = Array(b[(i + 1)...].filter { $0 != UInt8(ascii: ":") })
            guard rest.count == 4 || rest.count == 2, let oh = digits(rest, 0, 2), oh < 24 else { return nil }
            let om = rest.count == 4 ? (digits(rest, 2, 2) ?? 99) : 0
            guard om < 60 else { return nil }
            seconds -= sign * Double(oh * 3600 + om * 60)
        default:
            return nil
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `2015-10-26T23:35:45Z` (UTC, whole seconds): the form HIBP itself sends.
    static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let rest = total - days * 86_400
        let day = BreachDay(daysSinceEpoch: days)
        return "\(day)T" + pad(rest / 3600) + ":" + pad(rest / 60 % 60) + ":" + pad(rest % 60) + "Z"
    }

    static func digit(_ c: UInt8) -> Int? {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") ? Int(c - UInt8(ascii: "0")) : nil
    }

    static func digits(_ b: [UInt8], _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= b.count else { return nil }
        var n = 0
        for i in at..<(at + count) { guard let d = digit(b[i]) else { return nil }; n = n * 10 + d }
        return n
    }

    static func pad(_ n: Int, _ width: Int = 2) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
