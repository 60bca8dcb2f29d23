/// The header of a compiled gettext catalog (`.mo`), read by pwnvault itself before the catalog is
/// given to gettext: its `Plural-Forms` expression is evaluated by glibc for every plural message, and
/// glibc divides as the expression says, so `plural=n/0` or `n%0` would kill pwnvault with SIGFPE.
///
/// The `.mo` layout (GNU gettext manual, "The Format of GNU MO Files"): a magic number 0x950412de in the
/// file's byte order, a revision, the number of strings N, the offset of the table of originals and of
/// the table of translations; each table holds N (length, offset) pairs of 32-bit words. The header is
/// the translation of the empty original.
public enum MessageCatalogHeader {
    /// The header text of the catalog `bytes`, or nil when it is not a `.mo` file or has no header.
    public static func text(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 20 else { return nil }
        func word(_ at: Int, bigEndian: Bool) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            let b = bytes[at..<at + 4].map(UInt32.init)
            let value = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            return Int(value)
        }
        let bigEndian: Bool
        switch word(0, bigEndian: false) {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return nil
        }
        guard let count = word(8, bigEndian: bigEndian), let originals = word(12, bigEndian: bigEndian),
              let translations = word(16, bigEndian: bigEndian) else { return nil }
        // The originals are sorted, so the empty one comes first; any entry is looked at, in case it does not.
        for index in 0..<min(count, bytes.count / 8) {
            guard let length = word(originals + 8 * index, bigEndian: bigEndian) else { return nil }
            guard length == 0 else { continue }
            guard let textLength = word(translations + 8 * index, bigEndian: bigEndian),
                  let textOffset = word(translations + 8 * index + 4, bigEndian: bigEndian),
                  textOffset + textLength <= bytes.count else { return nil }
            return String(decoding: bytes[textOffset..<textOffset + textLength], as: UTF8.self)
        }
        return nil
    }

    /// The `Plural-Forms:` field of a header (what follows the name, to the end of the line), or nil.
    public static func pluralForms(in header: String) -> String? {
        for line in header.split(separator: "\n") where line.hasPrefix("Plural-Forms:") {
            return String(line.dropFirst("Plural-Forms:".count))
        }
        return nil
    }

    /// True when every `/` and `%` of the plural expression divides by a decimal constant other than 0:
    /// anything else (`n/0`, `n%(n-1)`, `n/n`) could divide by zero inside glibc, so the catalog is refused.
    public static func dividesSafely(_ pluralForms: String) -> Bool {
        let scalars = Array(pluralForms.unicodeScalars)
        var i = 0
        while i < scalars.count {
            defer { i += 1 }
            guard scalars[i] == "/" || scalars[i] == "%" else { continue }
            var j = i + 1
            while j < scalars.count, scalars[j] == " " || scalars[j] == "\t" { j += 1 }
            var digits = ""
            while j < scalars.count, ("0"..."9").contains(scalars[j]) { digits.unicodeScalars.append(scalars[j]); j += 1 }
            // A constant is a whole operand: `n % 10 == 1`, never the start of `10n` or `10(…)`.
            if digits.isEmpty || digits.allSatisfy({ $0 == "0" }) { return false }
            if j < scalars.count, scalars[j].properties.isAlphabetic || scalars[j] == "(" || scalars[j] == "_" { return false }
        }
        return true
    }
}
