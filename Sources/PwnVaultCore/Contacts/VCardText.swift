import FoundationEssentials

/// Turns a property's encoded value into text: transfer encoding (quoted-printable, base64), then
/// character set, then backslash escapes.
enum VCardText {
    /// The value of `property` as text, in its `CHARSET` (any set glibc's iconv reads), else UTF-8, else
    /// `codePage` when one is given (the parser gives one for 2.1 cards and cards without `VERSION`).
    /// `usedCodePage` says whether the value was read in `codePage`.
    static func decode(_ property: VCardProperty, codePage: String?) throws -> (text: String, usedCodePage: Bool) {
        let bytes = try transferDecoded(property)
        guard let charset = property.charset else {
            if let text = String(validating: bytes, as: UTF8.self) { return (text, false) }
            guard let codePage, let text = try? CharsetDecoder.decode(bytes, charset: codePage) else {
                throw VCardError.invalidText(line: property.line)
            }
            return (text, true)
        }
        do {
            return (try CharsetDecoder.decode(bytes, charset: charset), false)
        } catch .unknown {
            throw VCardError.unsupportedCharset(line: property.line)
        } catch {
            throw VCardError.invalidText(line: property.line)
        }
    }

    /// The value's bytes without its transfer encoding. Throws for broken quoted-printable or base64,
    /// so a damaged value is found whichever property it is in.
    static func transferDecoded(_ property: VCardProperty) throws -> [UInt8] {
        switch property.encoding {
        case "QUOTED-PRINTABLE", "QP":
            return try quotedPrintable(property.value, line: property.line)
        case "B", "BASE64":
            let compact = property.value.filter { $0 != 0x20 && $0 != 0x09 }
            guard let data = Data(base64Encoded: Data(compact)) else { throw VCardError.invalidBase64(line: property.line) }
            return Array(data)
        default:
            return Array(property.value)
        }
    }

    /// Decodes `=XX` (either case of hex digit). Soft line breaks were removed when lines were joined;
    /// any other `=` is an error.
    static func quotedPrintable(_ value: ArraySlice<UInt8>, line: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var i = value.startIndex
        while i < value.endIndex {
            let b = value[i]
            guard b == 0x3D else { out.append(b); i += 1; continue }
            guard i + 2 < value.endIndex, let high = hexValue(value[i + 1]), let low = hexValue(value[i + 2]) else {
                throw VCardError.invalidQuotedPrintable(line: line)
            }
            out.append(high << 4 | low)
            i += 3
        }
        return out
    }

    /// Splits text on `separator` where it is not escaped with a backslash (`N`'s and `ORG`'s `;`,
    /// multiple values' `,`). The parts keep their escapes; `unescaped` removes them.
    static func split(_ text: String, on separator: Character) -> [String] {
        // ASCII without a backslash (most names): each byte is a character (CR LF, the one pair, holds no
        // separator), so the text splits on the separator's byte, without `Character`s (issue 30).
        if let byte = separator.asciiValue, separator.utf8.count == 1, text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x5C }) {
            return text.utf8.split(separator: byte, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
        return characterSplit(text, on: separator)
    }

    /// `split` for any text, `Character` by `Character` (`VCardTextTests` holds the two to one answer).
    static func characterSplit(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for c in text {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" { current.append(c); escaped = true; continue }
            if c == separator { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        return parts
    }

    /// `\\` `\,` `\;` `\:` and `\n` or `\N` (a line break) become what they stand for; any other
    /// backslash is kept as written (2.1 had no escapes but `\;`).
    static func unescaped(_ text: String) -> String {
        // Without a backslash there is nothing to undo: the text as it is, scalar for scalar.
        if !text.utf8.contains(0x5C) { return text }
        return characterUnescaped(text)
    }

    /// `unescaped` for any text, `Character` by `Character`.
    static func characterUnescaped(_ text: String) -> String {
        var out = ""
        var escaped = false
        for c in text {
            if escaped {
                switch c {
                case "n", "N": out.append("\n")
                case "\\", ",", ";", ":": out.append(c)
                default: out.append("\\"); out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// Without leading and trailing spaces and tabs.
    static func trimmed<S: StringProtocol>(_ s: S) -> String {
        var t = Substring(s)
        while let f = t.first, f == " " || f == "\t" { t = t.dropFirst() }
        while let l = t.last, l == " " || l == "\t" { t = t.dropLast() }
        return String(t)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
