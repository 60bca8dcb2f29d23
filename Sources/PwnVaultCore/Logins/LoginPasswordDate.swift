import FoundationEssentials

/// When a login's password was last set, as far as its export can say, and how sure that is.
///
/// The verdict (a later session) compares it with a breach's date: a breach after the password was set
/// means the password in the breach is the one in use. Only `passwordChanged` is the date itself; the
/// others bound it, and the verdict must read them the safe way round.
struct LoginPasswordDate: Equatable, Sendable {
    enum Meaning: String, Equatable, Sendable {
        /// The export records when the password changed (Firefox `timePasswordChanged`, Bitwarden
        /// `passwordRevisionDate`, KeePass 2 XML history).
        case passwordChanged
        /// The entry (anything in it) was last modified then; the password was set then or earlier
        /// (KeePassXC CSV `Last Modified`, Proton Pass `modifyTime`, 1Password 7 `Last Edited`).
        case entryModified
        /// The entry was created then and its password never changed since (Bitwarden JSON without
        /// password history).
        case created
    }

    let date: Date
    let meaning: Meaning
}

/// Dates as exports write them.
enum LoginDateText {
    /// `2023-04-05T06:07:08Z`, with optional fractional seconds and a `Z` or `±hh:mm` offset (no offset
    /// reads as UTC); `2023-04-05 06:07:08` too; a bare date as midnight UTC. Nil for anything else.
    static func iso8601(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 10 else { return nil }
        func num(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var n: Int64 = 0
            for k in from..<(from + count) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                n = n * 10 + Int64(b[k] - 0x30)
            }
            return n
        }
        guard let year = num(0, 4), b[4] == UInt8(ascii: "-"), let month = num(5, 2), b[7] == UInt8(ascii: "-"),
              let day = num(8, 2), (1...12).contains(month), (1...31).contains(day), year >= 1970 else { return nil }
        var seconds = CivilCalendar.daysFromCivil(year: year, month: month, day: day) * 86_400
        var i = 10
        if i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") {
            guard let h = num(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let m = num(i + 4, 2),
                  h < 24, m < 60 else { return nil }
            seconds += h * 3600 + m * 60
            i += 6
            if i < b.count, b[i] == UInt8(ascii: ":") {
                guard let s = num(i + 1, 2), s < 61 else { return nil }
                seconds += s
                i += 3
            }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            }
            if i < b.count {
                switch b[i] {
                case UInt8(ascii: "Z"), UInt8(ascii: "z"): i += 1
                case UInt8(ascii: "+"), UInt8(ascii: "-"):
                    let sign: Int64 = b[i] == UInt8(ascii: "+") ? 1 : -1
                    guard let oh = num(i + 1, 2) else { return nil }
                    var j = i + 3
                    if j < b.count, b[j] == UInt8(ascii: ":") { j += 1 }
                    guard let om = num(j, 2) else { return nil }
                    seconds -= sign * (oh * 3600 + om * 60)
                    i = j + 2
                default: return nil
                }
            }
        }
        guard i == b.count else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// A count of seconds (or milliseconds) since 1970 in decimal; nil when empty, not a number, or
    /// outside 1970…9999.
    static func epoch(_ text: String, milliseconds: Bool) -> Date? {
        guard !text.isEmpty, text.utf8.count <= 16, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let n = Int64(text), n > 0 else { return nil }
        let seconds = milliseconds ? Double(n) / 1000 : Double(n)
        guard seconds < 253_402_300_800 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// KeePass 2's KDBX 4 time: base64 of a little-endian 64-bit count of seconds since 0001-01-01 UTC.
    static func keepassBase64(_ text: String) -> Date? {
        guard let data = Data(base64Encoded: text), data.count == 8 else { return nil }
        var n: UInt64 = 0
        for (k, byte) in data.enumerated() { n |= UInt64(byte) << (8 * UInt64(k)) }
        let since0001: Int64 = 62_135_596_800   // 0001-01-01 to 1970-01-01 in seconds
        guard n < UInt64(Int64.max), Int64(n) >= since0001 else { return nil }
        return Date(timeIntervalSince1970: Double(Int64(n) - since0001))
    }

    /// KeePass 2 XML's time: ISO 8601 (KDBX 3.1) or base64 seconds (KDBX 4).
    static func keepass(_ text: String) -> Date? { iso8601(text) ?? keepassBase64(text) }
}
