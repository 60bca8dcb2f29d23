import FoundationEssentials

/// The timestamps of the payload JSON (Docs/VAULT_FORMAT.md §7): exactly `YYYY-MM-DDTHH:MM:SS.sssZ`,
/// UTC, proleptic Gregorian, years 0001–9999, kept to the millisecond.
///
/// Works on bytes, so the JSON writer and reader never make a `String` of a timestamp.
enum PayloadTimestamp {
    /// Every timestamp is exactly this many bytes of ASCII.
    static let length = 24

    private static let millisecondsPerDay: Int64 = 86_400_000
    private static let earliestMilliseconds = CivilCalendar.daysFromCivil(year: 1, month: 1, day: 1) * millisecondsPerDay
    private static let latestMilliseconds = (CivilCalendar.daysFromCivil(year: 9999, month: 12, day: 31) + 1) * millisecondsPerDay - 1

    /// Milliseconds since 1970 of `date`, rounded to the nearest; nil outside the years 0001–9999.
    static func milliseconds(of date: Date) -> Int64? {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, scaled >= Double(earliestMilliseconds), scaled <= Double(latestMilliseconds) else {
            return nil
        }
        return Int64(scaled)
    }

    /// Writes the timestamp of `milliseconds` (which `milliseconds(of:)` returned) into the first
    /// `length` bytes of `out`.
    static func write(milliseconds: Int64, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= length && (earliestMilliseconds...latestMilliseconds).contains(milliseconds))
        let days = CivilCalendar.floorDivide(milliseconds, millisecondsPerDay)
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        func put(_ value: Int64, at offset: Int, digits: Int) {
            var value = value
            for i in stride(from: offset + digits - 1, through: offset, by: -1) {
                out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
        }
        put(year, at: 0, digits: 4); out[4] = UInt8(ascii: "-")
        put(month, at: 5, digits: 2); out[7] = UInt8(ascii: "-")
        put(day, at: 8, digits: 2); out[10] = UInt8(ascii: "T")
        put(ofDay / 3_600_000, at: 11, digits: 2); out[13] = UInt8(ascii: ":")
        put(ofDay / 60_000 % 60, at: 14, digits: 2); out[16] = UInt8(ascii: ":")
        put(ofDay / 1000 % 60, at: 17, digits: 2); out[19] = UInt8(ascii: ".")
        put(ofDay % 1000, at: 20, digits: 3); out[23] = UInt8(ascii: "Z")
    }

    /// The date of `text` when it is a timestamp in exactly the form of §7; nil for any other bytes.
    static func date(from text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == length, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
              text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
              text[19] == UInt8(ascii: "."), text[23] == UInt8(ascii: "Z") else { return nil }
        // Straight-line digits, any non-digit remembered in `bad` (a loop over ranges returning
        // optionals cost about 350 instructions a timestamp; read once per account and finding).
        var bad: UInt8 = 0
        func digit(_ i: Int) -> Int64 {
            let digit = text[i] &- UInt8(ascii: "0")
            bad |= digit > 9 ? 1 : 0
            return Int64(digit)
        }
        func two(_ i: Int) -> Int64 { digit(i) * 10 + digit(i + 1) }
        let year = two(0) * 100 + two(2), month = two(5), day = two(8)
        let hour = two(11), minute = two(14), second = two(17), millisecond = two(20) * 10 + digit(22)
        guard bad == 0, year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        let milliseconds = (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    // MARK: Calendar arithmetic


    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

}
