/// The forms in which a label can be read as an account, for `LabelScreen`: a label must spell no
/// account in any of them.
///
/// - `folded`: compatibility-folded and lower-cased. Fullwidth forms (`７`, `＠`) and the other
///   NFKC mappings people use to dodge a filter become ASCII, every decimal digit of any script (Unicode's
///   `numericType == .decimal`: Arabic-Indic `٧`, Devanagari `७`) its ASCII digit, the invisible format
///   characters (zero-width space, soft hyphen) are dropped and every space is a plain space.
///   FoundationEssentials has no NFKC, so this covers what NFKC does to text that could spell an
///   address or a number: the fullwidth and halfwidth block, the small and fullwidth `@` and `.`,
///   the mathematical alphanumerics, and digits.
/// - `readable`: `folded` with the common obfuscations undone: `mailto:` dropped, percent-encoding
///   decoded, brackets and quotes taken as spaces, the words `at` and `dot` (and `arroba`, `punto`,
///   `艾特`, `点`, … : `atWords`, `dotWords`) read as `@` and `.`, and
///   spaces around `@`, around a dot standing alone and between single letters (`a l i c e`) closed up.
struct FoldedLabel {
    let folded: String
    let readable: String

    /// The distinct forms, `folded` first.
    var forms: [String] { readable == folded ? [folded] : [folded, readable] }

    init(_ label: String) {
        folded = Self.fold(label)
        readable = Self.readable(folded)
    }

    /// Compatibility folding and lower case, as described above.
    static func fold(_ text: String) -> String {
        // ASCII (most labels, and the accounts they are compared with) has nothing to fold but case: no
        // Unicode property needs looking up (the lookups were most of an import's time, issue 30).
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            // Every rule below is about characters beyond ASCII.
            if s.value < 0x80 { out.append(s); continue }
            let p = s.properties
            if p.numericType == .decimal || p.numericType == .digit, let v = p.numericValue, v >= 0, v <= 9, v == v.rounded(.towardZero),
               s.value > 0x7F {
                // Every script's digits, and superscript, subscript, circled and dingbat ones.
                out.append(Unicode.Scalar(UInt8(48 + Int(v))))
                continue
            }
            switch s.value {
            case 0xFF01...0xFF5E: out.append(Unicode.Scalar(s.value - 0xFEE0)!)           // fullwidth ASCII
            case 0xFE6B: out.append("@")                                                  // small commercial at
            case 0xFE52, 0xFF61, 0x2024, 0x3002: out.append(".")                          // small, halfwidth, one-dot leader, ideographic
            case 0x00B7, 0x2027, 0x2219, 0x22C5, 0x30FB, 0xFF65: out.append(".")          // middle dots
            case 0xFE6A: out.append("%")
            case 0x3000, 0x00A0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F: out.append(" ")
            case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E,
                 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xE0000...0xE0FFF:
                continue                                                                  // invisible
            case 0x1D400...0x1D7FF:
                out.append(Self.mathematical(s) ?? s)
            default:
                switch p.generalCategory {
                case .nonspacingMark, .enclosingMark: continue                            // a mark after each digit, the keycap
                default: out.append(s)
                }
            }
        }
        return String(out).lowercased()
    }

    /// The letter or digit a mathematical alphanumeric symbol (U+1D400–1D7FF, `𝐚`, `𝟕`) is a style of.
    private static func mathematical(_ s: Unicode.Scalar) -> Unicode.Scalar? {
        let v = s.value
        if v >= 0x1D7CE && v <= 0x1D7FF { return Unicode.Scalar(0x30 + (v - 0x1D7CE) % 10) }
        if v >= 0x1D400 && v <= 0x1D6A3 {
            let i = (v - 0x1D400) % 52   // 13 alphabets of A–Z then a–z (a few holes hold nothing)
            return Unicode.Scalar(i < 26 ? 0x41 + i : 0x61 + i - 26)
        }
        return nil
    }

    /// `folded` with the obfuscations undone.
    static func readable(_ folded: String) -> String {
        var text = folded.utf8ContainsBytes(of: "mailto:") ? folded.replacingLiterally("mailto:", with: " ") : folded
        if text.utf8.contains(0x25) { text = percentDecoded(text) }
        // ASCII (most names) is read byte by byte, without splitting it into `Character`s (issue 30:
        // `readable` was 7 % of an import of named contacts). `LabelScreenLookupTests` holds both ways
        // to the same answer.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiReadable(text) }
        return unicodeReadable(text)
    }

    /// The reading of `readable` for any text, by `Character` (after `mailto:` and percent-encoding).
    static func unicodeReadable(_ text: String) -> String {
        var spaced = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s {
            case "(", ")", "[", "]", "{", "}", "<", ">", "\"", "'", "`", "_", "*": spaced.append(" ")
            default: spaced.append(s)
            }
        }
        var words = String(spaced)
        // Chinese writes them glued to the address: `alice艾特example点com`.
        for (word, symbol) in Self.gluedWords where words.utf8ContainsBytes(of: word) { words = words.replacingLiterally(word, with: symbol) }
        let tokens = words.split(whereSeparator: { $0.isWhitespace }).map { word -> String in
            if word == "@" || Self.atWords.contains(String(word)) { return "@" }
            if word == "." || Self.dotWords.contains(String(word)) { return "." }
            return String(word)
        }
        var out = ""
        for (i, token) in tokens.enumerated() {
            if i > 0 {
                let previous = tokens[i - 1]
                // `@` closes up with its neighbours; a dot only when it stands alone (`dot`, ` . `), since
                // prose ends words with one (`Dr. Smith at St. Mary's` is no address).
                let joins = previous.hasSuffix("@") || token.hasPrefix("@") || previous == "." || token == "."
                    || (previous.count == 1 && token.count == 1)
                if !joins { out += " " }
            }
            out += token
        }
        return out
    }

    /// `unicodeReadable` of ASCII text, on its bytes: each ASCII character is one byte (a `Character` of
    /// its own but CR LF, which is whitespace either way), whitespace is HT to CR and space, and no word
    /// of `gluedWords` is ASCII.
    static func asciiReadable(_ text: String) -> String {
        var tokens: [ArraySlice<UInt8>] = []
        let bytes = Array(text.utf8)
        var start = 0
        for (i, b) in bytes.enumerated() {
            switch b {
            // Brackets, quotes, `_` and `*` are read as spaces, as whitespace is.
            case 0x09...0x0D, 0x20, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x3C, 0x3E, 0x22, 0x27, 0x60, 0x5F, 0x2A:
                if i > start { tokens.append(bytes[start..<i]) }
                start = i + 1
            default: continue
            }
        }
        if bytes.count > start { tokens.append(bytes[start...]) }
        let at: [UInt8] = [0x40], dot: [UInt8] = [0x2E]
        let read: [ArraySlice<UInt8>] = tokens.map { word in
            if word.elementsEqual(at) || Self.asciiAtWords.contains(where: { word.elementsEqual($0) }) { return at[...] }
            if word.elementsEqual(dot) || Self.asciiDotWords.contains(where: { word.elementsEqual($0) }) { return dot[...] }
            return word
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (i, token) in read.enumerated() {
            if i > 0 {
                let previous = read[i - 1]
                let joins = previous.last == 0x40 || token.first == 0x40 || previous.elementsEqual(dot) || token.elementsEqual(dot)
                    || (previous.count == 1 && token.count == 1)
                if !joins { out.append(0x20) }
            }
            out += token
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The ASCII words of `atWords` and `dotWords`, as bytes.
    private static let asciiAtWords: [[UInt8]] = atWords.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
    private static let asciiDotWords: [[UInt8]] = dotWords.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }

    /// How `@` is spelt out, in the languages pwnvault speaks and common others (English, Spanish,
    /// Portuguese, French, Italian, German, Swedish, Russian, Japanese, Chinese).
    static let atWords: Set<String> = ["at", "arroba", "chez", "arobase", "chiocciola", "klammeraffe", "snabela", "собака", "アット",
                                       "艾特", "圈a", "ⓐ", "⒜"]
    /// How `.` is spelt out, likewise.
    static let dotWords: Set<String> = ["dot", "period", "punkt", "punto", "point", "ponto", "pont", "kropka", "nokta", "точка",
                                        "ドット", "点", "點", "句点"]
    /// Those written without spaces around them.
    static let gluedWords: [(String, String)] = [("艾特", " @ "), ("句点", " . "), ("点", " . "), ("點", " . ")]

    /// `%40` → `@`: every `%` and two hex digits decoded as a byte, the result read as UTF-8.
    private static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l); i += 3
            } else {
                out.append(bytes[i]); i += 1
            }
        }
        return fold(String(decoding: out, as: UTF8.self))
    }
}
