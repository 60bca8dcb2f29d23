import FoundationEssentials

/// Pieces of JSON text with the vault writer's escaping and calendar, for output written by hand:
/// `list --json` lays out JSONEncoder's format itself (JSONEncoder with sorted keys cost twice the
/// rest of `list` on 10,000 accounts) and must produce its bytes exactly.
public enum JSONText {
    /// `string` quoted and escaped as the payload is (Docs/VAULT_FORMAT.md §7.1: `"` and `\` with a
    /// backslash, `\b \t \n \f \r`, other controls as `\u00xx`, everything else as its UTF-8), which is
    /// what JSONEncoder writes with `.withoutEscapingSlashes`.
    public static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { PayloadJSONWriter.appendCanonicalString(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// `date` quoted as JSONEncoder's `.iso8601` strategy writes it: `"2026-11-30T21:04:05Z"`, UTC,
    /// seconds rounded down. Foundation's calendar is Julian before 15 October 1582, so dates before
    /// 1583 and after 9999 are left to `Date.ISO8601FormatStyle`, which that strategy uses.
    public static func appendQuotedISO8601(_ date: Date, to out: inout [UInt8]) {
        let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
        guard seconds >= firstFastSecond, seconds <= lastFastSecond else {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: Date.ISO8601FormatStyle().format(date).utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        let milliseconds = (Int64(seconds) + secondsFrom1970ToReference) * 1000
        withUnsafeTemporaryAllocation(byteCount: PayloadTimestamp.length, alignment: 1) { stamp in
            PayloadTimestamp.write(milliseconds: milliseconds, into: stamp)   // `YYYY-MM-DDTHH:MM:SS.sssZ`
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: stamp[0..<19])
            out.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
        }
    }

    private static let secondsFrom1970ToReference: Int64 = 978_307_200
    /// 1583-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since the reference date.
    private static let firstFastSecond = Double(CivilCalendar.daysFromCivil(year: 1583, month: 1, day: 1) * 86_400
                                                - secondsFrom1970ToReference)
    private static let lastFastSecond = Double(CivilCalendar.daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400 - 1
                                               - secondsFrom1970ToReference)
}
