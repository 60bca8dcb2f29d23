/// A region national phone numbers are read in: two upper-case ASCII letters, CLDR's region codes
/// (`GB`, not `UK`). Whether libphonenumber knows it is asked only when a number is read
/// (`PhoneNumbering`), so that reading the settings never loads the library.
public struct PhoneRegion: Hashable, Sendable, CustomStringConvertible {
    /// `GB`.
    public let code: String

    /// `gb` or `GB`; nil for anything but two ASCII letters.
    public init?(code: String) {
        let letters = Array(code.utf8)
        guard letters.count == 2, letters.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        self.code = String(decoding: letters.map { $0 & ~0x20 }, as: UTF8.self)
    }

    /// The territory of a POSIX locale name, `language[_territory][.codeset][@modifier]`:
    /// `en_GB.UTF-8` → GB, `de_DE@euro` → DE. Nil for `C`, `POSIX`, `C.UTF-8`, `en`, `es_419`.
    public init?(locale: String) {
        let name = locale.split(separator: "@", maxSplits: 1).first.map { $0.split(separator: ".", maxSplits: 1) }?.first ?? ""
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        self.init(code: String(parts[1]))
    }

    public var description: String { code }
}
