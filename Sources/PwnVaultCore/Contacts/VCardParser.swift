import FoundationEssentials

/// Reads the contacts of a vCard file (.vcf) as GNOME Contacts, Evolution, Thunderbird, Google
/// Contacts, Apple Contacts, Outlook, KAddressBook and phones export them: versions 2.1, 3.0 and 4.0,
/// several cards per file, LF, CRLF or CR line ends, a UTF-8, UTF-16 or UTF-32 byte-order mark, folded
/// lines, grouped properties (`item1.EMAIL`), quoted-printable with soft line breaks, `CHARSET` in any
/// set glibc's iconv reads (Windows and ISO code pages, KOI8, Shift_JIS, GB18030, Big5, …), base64 and
/// backslash escapes.
///
/// Forgiving the way mature readers are (vobject, ez-vcard), because one odd line must not lose a
/// whole address book: a line that cannot be read (no `:`, a name with a `/` in it, a fold that
/// continues nothing), a used value that does not decode, an unknown `CHARSET` or `VERSION`, and a
/// vCard nested in `AGENT` are skipped and reported by line (`VCardReading.skippedLines`) while the
/// contact goes on; a contact cut off before its `END:VCARD` is skipped whole, because its last value
/// may be cut off too (`skippedContacts`). Only properties pwnvault uses (`VERSION`, `FN`, `N`, `ORG`,
/// `EMAIL`, `TEL`) are decoded: a damaged `PHOTO` costs nothing. 8-bit text without `CHARSET` in a 2.1
/// card is UTF-8 when it is valid UTF-8, else the locale's code page, else Windows-1252, and
/// `VCardReading.codePage` says which. A file is refused only when no vCard begins in it (or it is
/// too large). Messages name lines, never their content.
public enum VCardParser {
    /// The largest file read: 16 MiB, far beyond any address book (photos included), small enough to
    /// hold in memory without thought.
    public static let maxBytes = 16 * 1024 * 1024

    /// The contacts in `data`, in file order, leaving out what cannot be read. Throws `VCardError`.
    public static func parse(_ data: [UInt8]) throws -> [VCardContact] { try read(data, locale: nil).contacts }

    /// The contacts in `data` and what was left out. `locale` is the locale whose code page 2.1 text
    /// without `CHARSET` is read in when it is not UTF-8 (`Settings.ctypeLocale`). Throws `VCardError`
    /// when the file is too large or holds no vCard.
    public static func read(_ data: [UInt8], locale: String?) throws -> VCardReading {
        guard data.count <= maxBytes else { throw VCardError.tooLarge(limit: maxBytes) }
        let localeCodePage = CharsetDecoder.codePage(ofLocale: locale)
        var reader = Reader(codePage: localeCodePage ?? CharsetDecoder.fallbackCodePage, fromLocale: localeCodePage != nil)
        VCardLineReader.forEachLogicalLine(in: try utf8(data)) { reader.take($0) }
        return try reader.finish()
    }

    /// UTF-16 and UTF-32 files (some Windows exporters), told by their byte-order mark, as UTF-8;
    /// everything else as it is.
    private static func utf8(_ data: [UInt8]) throws -> [UInt8] {
        let charset: String
        if data.starts(with: [0xFF, 0xFE, 0, 0]) || data.starts(with: [0, 0, 0xFE, 0xFF]) { charset = "UTF-32" }
        else if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { charset = "UTF-16" }
        else { return data }
        guard let text = try? CharsetDecoder.decode(data, charset: charset) else { throw VCardError.invalidText(line: 1) }
        return Array(text.utf8)
    }

    /// The file read line by line: which card is open, and what was left out.
    private struct Reader {
        let codePage: String
        let fromLocale: Bool
        var result = VCardReading()
        var card: Card?
        /// Inside a vCard nested in an `AGENT`: how deep, and where it began.
        var embedded: (depth: Int, line: Int)?
        /// The previous property was an `AGENT` with no value: a `BEGIN:VCARD` now is its card (2.1).
        var agentOpen = false
        /// Whether the last line taken was skipped, so that a run of them is reported as one.
        var lastWasSkipped = false
        var sawCard = false
        /// For the refusal of a file in which no vCard begins: its first NUL, its first BEGIN of something else.
        var firstNUL: Int?
        var firstOtherBegin: Int?

        init(codePage: String, fromLocale: Bool) { self.codePage = codePage; self.fromLocale = fromLocale }

        mutating func take(_ logical: VCardLogicalLine) {
            let wasAgent = agentOpen
            agentOpen = false
            if let problem = logical.problem {
                if case .binary = problem, firstNUL == nil { firstNUL = problem.line }
                if embedded == nil { skip(problem, logical) }
                return
            }
            let property: VCardProperty
            do { property = try VCardProperty(logical) } catch {
                if embedded == nil {
                    // Outside a card, "this is not where a vCard starts" says more than what is wrong with the line.
                    skip(card == nil ? .outsideCard(line: logical.line) : error as? VCardError ?? .missingColon(line: logical.line), logical)
                }
                return
            }
            let keyword = property.name == "BEGIN" || property.name == "END" ? Self.keyword(property) : ""
            if let inner = embedded {
                if keyword == "VCARD" {
                    let depth = inner.depth + (property.name == "BEGIN" ? 1 : -1)
                    embedded = depth > 0 ? (depth, inner.line) : nil
                    if depth == 0 { skip(.embeddedCard(line: inner.line), line: inner.line, lastLine: logical.lastLine) }
                }
                return
            }
            switch (property.name, keyword) {
            case ("BEGIN", "VCARD"):
                sawCard = true
                if card != nil && wasAgent {
                    embedded = (1, property.line)
                    return
                }
                if let open = card { result.skippedContacts.append(VCardSkip(.nestedBegin(line: property.line, outer: open.line), line: open.line)) }
                card = Card(line: property.line)
            case ("BEGIN", _):
                if firstOtherBegin == nil && !sawCard { firstOtherBegin = property.line }
                skip(.notAVCard(line: property.line), logical)
            case ("END", "VCARD"):
                guard let open = card else { return skip(.endWithoutBegin(line: property.line), logical) }
                let (contact, skipped, codePageLines) = open.contact(codePage: codePage)
                result.contacts.append(contact)
                result.skippedLines += skipped
                if !codePageLines.isEmpty {
                    if result.codePage == nil { result.codePage = .init(charset: codePage, fromLocale: fromLocale, lines: []) }
                    result.codePage?.lines += codePageLines
                }
                card = nil
            case ("END", _):
                skip(card == nil ? .outsideCard(line: property.line) : .mismatchedEnd(line: property.line), logical)
            default:
                guard card != nil else { return skip(.outsideCard(line: property.line), logical) }
                lastWasSkipped = false
                if property.name == "AGENT" {
                    let value = VCardText.trimmed(String(decoding: property.value, as: UTF8.self)).uppercased()
                    if value.isEmpty { agentOpen = true }
                    // 3.0 writes the card into the value, escaped: nothing to decode, but reported.
                    if value.hasPrefix("BEGIN:VCARD") { skip(.embeddedCard(line: property.line), logical) }
                    return
                }
                if let problem = card!.add(property) { skip(problem, logical) }
            }
        }

        /// The result, or the refusal of a file in which no vCard begins.
        mutating func finish() throws -> VCardReading {
            if let open = card {
                result.skippedContacts.append(VCardSkip(.missingEnd(line: open.line), line: open.line))
            }
            guard sawCard else {
                if let line = firstOtherBegin { throw VCardError.notAVCard(line: line) }
                if let line = firstNUL { throw VCardError.binary(line: line) }
                throw lastWasSkipped || !result.skippedLines.isEmpty ? VCardError.noVCard : VCardError.empty
            }
            result.skippedLines.sort { $0.line < $1.line }
            result.codePage?.lines.sort()
            return result
        }

        private mutating func skip(_ problem: VCardError, _ logical: VCardLogicalLine) {
            skip(problem, line: logical.line, lastLine: logical.lastLine)
        }

        /// Records a skip; one right after a skip for the same reason extends it.
        private mutating func skip(_ problem: VCardError, line: Int, lastLine: Int) {
            if lastWasSkipped, let previous = result.skippedLines.last, previous.problem.reason == problem.reason,
               previous.lastLine < line {
                result.skippedLines[result.skippedLines.count - 1].lastLine = lastLine
            } else {
                result.skippedLines.append(VCardSkip(problem, line: line, lastLine: lastLine))
            }
            lastWasSkipped = true
        }

        private static func keyword(_ property: VCardProperty) -> String {
            VCardText.trimmed(String(decoding: property.value, as: UTF8.self)).uppercased()
        }
    }

    /// The properties of the open card that pwnvault uses, kept until `END:VCARD` so that they are
    /// decoded knowing the card's version wherever `VERSION` stood. Nothing else is decoded.
    private struct Card {
        let line: Int
        var version: VCardVersion?
        var names: [VCardProperty] = []
        var structuredName: [VCardProperty] = []
        var organization: [VCardProperty] = []
        var emails: [VCardProperty] = []
        var phones: [VCardProperty] = []

        init(line: Int) { self.line = line }

        /// Keeps `property` if pwnvault uses it; returns the problem of a `VERSION` it does not read.
        mutating func add(_ property: VCardProperty) -> VCardError? {
            switch property.name {
            case "VERSION":
                let text = VCardText.trimmed(String(decoding: property.value, as: UTF8.self))
                guard let v = VCardVersion(rawValue: text) else { return .unsupportedVersion(line: property.line) }
                version = v
            case "FN": names.append(property)
            case "N": structuredName.append(property)
            case "ORG": organization.append(property)
            case "EMAIL": emails.append(property)
            case "TEL": phones.append(property)
            default: break
            }
            return nil
        }

        /// The contact, the properties that could not be decoded, and the lines read in `codePage`.
        func contact(codePage fallback: String?) -> (VCardContact, [VCardSkip], [Int]) {
            var decoder = Decoder(codePage: version == .v2_1 || version == nil ? fallback : nil)
            let contact = VCardContact(
                line: line, version: version, formattedName: decoder.formattedName(names),
                structuredName: decoder.first(structuredName, Self.readingOrderName),
                organization: decoder.first(organization, Self.organizationName),
                emails: decoder.addresses(emails, phone: false), phones: decoder.addresses(phones, phone: true))
            return (contact, decoder.skipped, decoder.codePageLines)
        }

        /// `N` is Family;Given;Additional;Prefix;Suffix, each possibly a comma list: shown as
        /// "Prefix Given Additional Family Suffix".
        static func readingOrderName(_ text: String) -> String? {
            let parts = VCardText.split(text, on: ";").map { component in
                VCardText.split(component, on: ",").map { VCardText.trimmed(VCardText.unescaped($0)) }
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
            let order = [3, 1, 2, 0, 4].filter { $0 < parts.count }
            return Decoder.nonEmpty(order.map { parts[$0] }.filter { !$0.isEmpty }.joined(separator: " "))
        }

        /// `ORG` is Name;Unit;…: the organisation's name.
        static func organizationName(_ text: String) -> String? {
            VCardText.split(text, on: ";").lazy.compactMap { Decoder.nonEmpty(VCardText.unescaped($0)) }.first
        }
    }

    /// Decodes a card's properties, setting aside each one that does not decode.
    private struct Decoder {
        let codePage: String?
        var skipped: [VCardSkip] = []
        var codePageLines: [Int] = []

        init(codePage: String?) { self.codePage = codePage }

        mutating func text(_ p: VCardProperty) -> String? {
            do {
                let (text, usedCodePage) = try VCardText.decode(p, codePage: codePage)
                if usedCodePage { codePageLines.append(p.line) }
                return text
            } catch {
                skipped.append(VCardSkip(error as? VCardError ?? .invalidText(line: p.line), line: p.line))
                return nil
            }
        }

        /// The most preferred non-empty `FN` (4.0 allows several, with `PREF`); the first on a tie.
        mutating func formattedName(_ names: [VCardProperty]) -> String? {
            var best: (preference: Int, name: String)?
            for p in names {
                guard let raw = text(p), let name = Self.nonEmpty(VCardText.unescaped(raw)) else { continue }
                let preference = p.preference ?? Int.max
                if best == nil || preference < best!.preference { best = (preference, name) }
            }
            return best?.name
        }

        /// The first of `properties` that decodes, made into a name by `make`.
        mutating func first(_ properties: [VCardProperty], _ make: (String) -> String?) -> String? {
            for p in properties { if let raw = text(p) { return make(raw) } }
            return nil
        }

        mutating func addresses(_ properties: [VCardProperty], phone: Bool) -> [VCardAddress] {
            properties.compactMap { p in
                guard let raw = text(p) else { return nil }
                let value = VCardText.trimmed(VCardText.unescaped(raw)).trimmingWhitespaceAndNewlines()
                return phone ? VCardAddress.phone(value, line: p.line) : VCardAddress.email(value, line: p.line)
            }
        }

        static func nonEmpty(_ s: String) -> String? {
            let t = s.trimmingWhitespaceAndNewlines()
            return t.isEmpty ? nil : t
        }
    }
}
