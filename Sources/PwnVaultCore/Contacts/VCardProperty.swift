/// One property of a card, `[group "."] NAME *(";" param) ":" value`, with its value still encoded.
///
/// Parameters are read the way the three versions write them: `TYPE=INTERNET,HOME`, repeated
/// `type=INTERNET;type=pref`, quoted `TYPE="work,voice"` (a `:` or `;` inside quotes is part of the
/// value), and 2.1's bare values (`EMAIL;INTERNET;PREF:`, `;QUOTED-PRINTABLE`), which count as `TYPE`
/// except the encodings, which count as `ENCODING`.
struct VCardProperty {
    let line: Int
    /// Apple and Google group an address with its label: `item1` in `item1.EMAIL`.
    let group: String?
    /// Upper-cased.
    let name: String
    /// Parameter names upper-cased; values as written, without quotes.
    let parameters: [String: [String]]
    /// The raw bytes after the first `:` outside quotes.
    let value: ArraySlice<UInt8>

    init(_ logical: VCardLogicalLine) throws {
        line = logical.line
        guard let colon = Self.colonIndex(logical.bytes) else { throw VCardError.missingColon(line: logical.line) }
        let header = Self.split(String(decoding: logical.bytes[..<colon], as: UTF8.self), on: ";")
        value = logical.bytes[(colon + 1)...]

        let parts = VCardText.trimmed(header[0]).split(separator: ".", omittingEmptySubsequences: false)
        // Checked before upper-casing: "ſ".uppercased() is "S".
        guard parts.count <= 2, parts.allSatisfy(Self.isValidName) else { throw VCardError.invalidName(line: logical.line) }
        name = parts[parts.count - 1].uppercased()
        group = parts.count == 2 ? String(parts[0]) : nil
        parameters = Self.readParameters(header.dropFirst())
    }

    /// `ENCODING`, upper-cased (`QUOTED-PRINTABLE`, `B`, `BASE64`, `8BIT`), nil when absent.
    var encoding: String? { parameters["ENCODING"]?.first.map { VCardText.trimmed($0).uppercased() } }

    /// `CHARSET`, upper-cased, nil when absent.
    var charset: String? { parameters["CHARSET"]?.first.map { VCardText.trimmed($0).uppercased() } }

    /// How preferred this value is, lower first: `PREF=n` (4.0), `TYPE=pref` (3.0, 2.1) as 1; nil when neither.
    var preference: Int? {
        if let n = parameters["PREF"]?.compactMap({ Int(VCardText.trimmed($0)) }).min() { return n }
        let types = (parameters["TYPE"] ?? []).flatMap { $0.split(separator: ",") }
        return types.contains { VCardText.trimmed($0).uppercased() == "PREF" } ? 1 : nil
    }

    /// Whether the header of a (possibly unfinished) logical line says its value is quoted-printable,
    /// which decides whether a final `=` is a soft line break.
    static func headerDeclaresQuotedPrintable(_ bytes: [UInt8]) -> Bool {
        guard let colon = colonIndex(bytes) else { return false }
        let header = split(String(decoding: bytes[..<colon], as: UTF8.self), on: ";")
        return readParameters(header.dropFirst())["ENCODING"]?.contains {
            let e = VCardText.trimmed($0).uppercased()
            return e == "QUOTED-PRINTABLE" || e == "QP"
        } ?? false
    }

    /// Whether a line has a `:` outside quotes, so a value.
    static func hasValue(_ bytes: [UInt8]) -> Bool { colonIndex(bytes) != nil }

    /// The `[group.]NAME` of a line that is a well-formed property start (a valid name, then `;` or `:`,
    /// and a `:` somewhere); nil otherwise.
    static func headerName(_ bytes: [UInt8]) -> String? {
        guard let colon = colonIndex(bytes) else { return nil }
        let header = split(String(decoding: bytes[..<colon], as: UTF8.self), on: ";")
        let parts = header[0].split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy(isValidName) else { return nil }
        return header[0]
    }

    /// The properties vCard 2.1, 3.0 and 4.0 (and their RFC extensions) define.
    static let knownNames: Set<String> = [
        "BEGIN", "END", "VERSION", "FN", "N", "NICKNAME", "PHOTO", "BDAY", "ANNIVERSARY", "GENDER", "ADR", "LABEL",
        "TEL", "EMAIL", "IMPP", "LANG", "TZ", "GEO", "TITLE", "ROLE", "LOGO", "AGENT", "ORG", "MEMBER", "RELATED",
        "CATEGORIES", "NOTE", "PRODID", "REV", "SOUND", "UID", "CLIENTPIDMAP", "URL", "KEY", "FBURL", "CALADRURI",
        "CALURI", "XML", "SOURCE", "KIND", "NAME", "PROFILE", "MAILER", "CLASS", "SORT-STRING", "BIRTHPLACE",
        "DEATHPLACE", "DEATHDATE", "EXPERTISE", "HOBBY", "INTEREST", "ORG-DIRECTORY",
    ]

    // MARK: reading the header

    private static let bareEncodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT"]

    private static func readParameters(_ raw: ArraySlice<String>) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for item in raw {
            if let eq = item.firstIndex(of: "=") {
                let key = item[..<eq].trimmingASCIIWhitespaceAndCase()
                let values = split(String(item[item.index(after: eq)...]), on: ",").map(unquoted)
                result[key, default: []].append(values.joined(separator: ","))
            } else {
                let bare = VCardText.trimmed(item)
                guard !bare.isEmpty else { continue }
                result[bareEncodings.contains(bare.uppercased()) ? "ENCODING" : "TYPE", default: []].append(bare)
            }
        }
        return result
    }

    private static func unquoted(_ s: String) -> String {
        let t = VCardText.trimmed(s)
        guard t.count >= 2, t.first == "\"", t.last == "\"" else { return t }
        return String(t.dropFirst().dropLast())
    }

    /// The index of the first `:` outside double quotes.
    private static func colonIndex(_ bytes: [UInt8]) -> Int? {
        var quoted = false
        for (i, b) in bytes.enumerated() {
            if b == 0x22 { quoted.toggle() } else if b == 0x3A && !quoted { return i }
        }
        return nil
    }

    /// Splits on `separator` outside double quotes.
    private static func split(_ s: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for c in s {
            if c == "\"" { quoted.toggle() }
            if c == separator && !quoted { parts.append(current); current = "" } else { current.append(c) }
        }
        parts.append(current)
        return parts
    }

    /// Letters, digits, '-' (RFC 6350 3.3), and '_', which some exporters use in `X-` names.
    private static func isValidName(_ s: Substring) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy {
            ($0 >= "A" && $0 <= "Z") || ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_"
        }
    }
}

private extension StringProtocol {
    func trimmingASCIIWhitespaceAndCase() -> String { VCardText.trimmed(self).uppercased() }
}
