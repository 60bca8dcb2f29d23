import FoundationEssentials

/// A calendar day with no time and no time zone, as in a breach's `BreachDate` (`2013-10-04`).
///
/// HIBP's breach dates are approximate days, not instants: keeping them as a `Date` invites an
/// off-by-one-day display in time zones west of UTC.
public struct BreachDay: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid day of the proleptic Gregorian calendar, or nil.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...BreachDay.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    /// Reads `YYYY-MM-DD`, also when a time follows (`2013-10-04T00:00:00Z`); nil for anything else.
    public init?(parsing text: String) {
        self.init(utf8: Array(text.trimmingWhitespace().utf8))
    }

    init?(utf8 b: [UInt8]) {
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b.count == 10 || [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[10]),
              let y = HIBPTimestamp.digits(b, 0, 4), let m = HIBPTimestamp.digits(b, 5, 2),
              let d = HIBPTimestamp.digits(b, 8, 2) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day `days` after 1970-01-01 (negative before it).
    init(daysSinceEpoch days: Int) {
        let (y, m, d) = CivilCalendar.civil(fromDays: Int64(days))
        year = Int(y); month = Int(m); day = Int(d)
    }

    /// Days since 1970-01-01.
    var daysSinceEpoch: Int { Int(CivilCalendar.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))) }

    /// Midnight UTC at the start of this day.
    public var startDate: Date { Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400) }

    /// `YYYY-MM-DD`.
    public var description: String {
        HIBPTimestamp.pad(year, 4) + "-" + HIBPTimestamp.pad(month) + "-" + HIBPTimestamp.pad(day)
    }

    public static func < (a: BreachDay, b: BreachDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = BreachDay(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD date"))
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
