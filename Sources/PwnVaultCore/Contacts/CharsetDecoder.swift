internal import CIconvShim

/// Text in a character set a vCard can name (`CHARSET=…`), or a locale's code page, turned into a
/// String through glibc's iconv (every gconv module it needs ships in Debian's libc6). The only file
/// that imports CIconvShim.
///
/// Names are looked up as exporters spell them: IANA names, Windows and Java spellings (`CP1252`,
/// `windows-1252`, `x-sjis`, `ISO_8859-1`, `UTF8`), case and `-`/`_` aside. A name iconv does not
/// know is `nil` from `canonicalName`, and `decode` throws `.unknown` for it.
enum CharsetDecoder {
    enum Failure: Error, Equatable {
        /// iconv knows no such character set.
        case unknown
        /// The bytes are not valid text in that character set (or stop in the middle of a character).
        case invalid
    }

    /// What 8-bit vCard 2.1 text without `CHARSET` is read as when it is not UTF-8 and the locale names
    /// no code page: Outlook's.
    static let fallbackCodePage = "WINDOWS-1252"

    /// `bytes` read as text in `charset` (any spelling `canonicalName` accepts).
    static func decode(_ bytes: [UInt8], charset: String) throws(Failure) -> String {
        guard let name = canonicalName(charset) else { throw .unknown }
        if name == "UTF-8" {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalid }
            return text
        }
        if bytes.isEmpty { return "" }
        // Every set iconv converts from needs at most 4 UTF-8 bytes per input byte (a single-byte set: 3;
        // UTF-16: 3 for 2); the loop only grows for a gconv module that composes more than that.
        var capacity = bytes.count * 4 + 16
        while true {
            var written = 0
            var out = [UInt8](repeating: 0, count: capacity)
            let code = bytes.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    pwv_iconv_to_utf8(name, input.baseAddress, input.count, output.baseAddress, output.count, &written)
                }
            }
            switch code {
            case PWV_ICONV_OK:
                // iconv checked the input; the output is UTF-8, but is checked again rather than trusted.
                guard let text = String(validating: out[..<written], as: UTF8.self) else { throw .invalid }
                return text
            case PWV_ICONV_NO_ROOM: capacity *= 2
            case PWV_ICONV_UNKNOWN_CHARSET: throw .unknown
            default: throw .invalid
            }
        }
    }

    /// The name iconv knows `charset` by, nil when it knows none. Exporters' spellings that glibc does
    /// not list are mapped first (`x-sjis`, `x-mac-roman`, `ks_c_5601-1987`, …).
    static func canonicalName(_ charset: String) -> String? {
        let spelled = VCardText.trimmed(charset).uppercased()
        guard !spelled.isEmpty, spelled.count <= 40,
              spelled.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.:".unicodeScalars.contains($0)) })
        else { return nil }
        let squeezed = spelled.filter { $0 != "-" && $0 != "_" }
        if ["UTF8", "USASCII", "ASCII", "ANSIX3.41968", "646", "UNICODE11UTF8"].contains(squeezed) { return "UTF-8" }
        if let alias = aliases[squeezed] { return alias }
        return knownToIconv(spelled) ? spelled : nil
    }

    /// The code page of a locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as `Settings.ctypeLocale` gives
    /// it), or nil when it has none worth using: ASCII and UTF-8 locales, `C`, `POSIX`, no locale. A locale
    /// that is not installed on this machine is read from its name (`ru_RU.KOI8-R`).
    static func codePage(ofLocale locale: String?) -> String? {
        guard let locale, !locale.isEmpty, locale != "C", locale != "POSIX" else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        var codeset: String?
        if pwv_locale_codeset(locale, &buffer, buffer.count) == 0 {
            codeset = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else if let dot = locale.firstIndex(of: ".") {
            codeset = String(locale[locale.index(after: dot)...].prefix { $0 != "@" })
        }
        guard let codeset, let name = canonicalName(codeset), name != "UTF-8" else { return nil }
        return name
    }

    /// Spellings seen in exported vCards (and Java's and Microsoft's names) that glibc's iconv does
    /// not accept as they are, keyed without `-` and `_`.
    private static let aliases: [String: String] = [
        "XSJIS": "SHIFT_JIS", "SHIFTJIS": "SHIFT_JIS", "MSKANJI": "SHIFT_JIS", "WINDOWS31J": "CP932", "MS932": "CP932",
        "XEUCJP": "EUC-JP", "EUCJP": "EUC-JP", "ISO2022JP": "ISO-2022-JP",
        "KSC56011987": "CP949", "KSC5601": "CP949", "XWINDOWS949": "CP949", "EUCKR": "EUC-KR",
        "XGBK": "GBK", "XEUCCN": "GB2312", "EUCCN": "GB2312", "GB18030": "GB18030",
        "BIG5HKSCS": "BIG5-HKSCS", "XBIG5": "BIG5",
        "XMACROMAN": "MACINTOSH", "MACROMAN": "MACINTOSH", "XMACCYRILLIC": "MAC-CYRILLIC",
        "KOI8R": "KOI8-R", "KOI8U": "KOI8-U",
        "UTF16": "UTF-16", "UTF16LE": "UTF-16LE", "UTF16BE": "UTF-16BE",
        "UTF32": "UTF-32", "UTF32LE": "UTF-32LE", "UTF32BE": "UTF-32BE",
        "UCS2": "UTF-16", "XUTF16LEBOM": "UTF-16",
    ]

    /// Whether iconv_open accepts `name` (an empty conversion tells).
    private static func knownToIconv(_ name: String) -> Bool {
        var written = 0
        var out: [UInt8] = [0]
        return pwv_iconv_to_utf8(name, nil, 0, &out, 1, &written) != PWV_ICONV_UNKNOWN_CHARSET
    }
}
