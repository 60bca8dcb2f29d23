import FoundationEssentials

/// Reads the contacts of a vCard file (.vcf) as GNOME Contacts, Evolution, Thunderbird, Google
/// Contacts, Apple Contacts, Outlook and old phones export them: versions 2.1, 3.0 and 4.0, several
/// cards per file, LF, CRLF or CR line ends, a UTF-8 (or UTF-16) byte-order mark, folded lines,
/// grouped properties (`item1.EMAIL`), quoted-printable with soft line breaks and `CHARSET` (2.1),
/// base64, and backslash escapes.
///
/// Strict about structure, so a damaged file is refused instead of half-read: every card must begin
/// and end, cards do not nest (2.1's embedded `AGENT` cards are refused too), every line is
/// `NAME:VALUE`, quoted-printable must decode anywhere in the file, and the text pwnvault uses must be
/// valid in its character set. Errors name the line, never its content.
public enum VCardParser {
    /// The largest file read: 16 MiB, far beyond any address book (photos included), small enough to
    /// hold in memory without thought.
    public static let maxBytes = 16 * 1024 * 1024

    /// The contacts in `data`, in file order. Throws `VCardError`.
    public static func parse(_ data: [UInt8]) throws -> [VCardContact] {
        guard data.count <= maxBytes else { throw VCardError.tooLarge(limit: maxBytes) }
        let bytes = try utf8(data)
        var contacts: [VCardContact] = []
        var card: Card?
        try VCardLineReader.forEachLogicalLine(in: bytes) { logical in
            let property: VCardProperty
            do { property = try VCardProperty(logical) } catch where card == nil {
                // Outside a card, "this is not where a vCard starts" says more than what is wrong with the line.
                throw VCardError.outsideCard(line: logical.line)
            }
            switch property.name {
            case "BEGIN":
                if let open = card { throw VCardError.nestedBegin(line: property.line, outer: open.line) }
                guard keyword(property) == "VCARD" else { throw VCardError.notAVCard(line: property.line) }
                card = Card(line: property.line)
            case "END":
                guard let open = card else {
                    throw keyword(property) == "VCARD" ? VCardError.endWithoutBegin(line: property.line)
                                                       : VCardError.outsideCard(line: property.line)
                }
                guard keyword(property) == "VCARD" else { throw VCardError.mismatchedEnd(line: property.line) }
                contacts.append(try open.contact())
                card = nil
            default:
                guard card != nil else { throw VCardError.outsideCard(line: property.line) }
                try card!.add(property)
            }
        }
        if let open = card { throw VCardError.missingEnd(line: open.line) }
        guard !contacts.isEmpty else { throw VCardError.empty }
        return contacts
    }

    /// UTF-16 files (some Windows exporters) converted to UTF-8; everything else as it is.
    private static func utf8(_ data: [UInt8]) throws -> [UInt8] {
        guard data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) else { return data }
        guard let text = String(data: Data(data), encoding: .utf16) else { throw VCardError.invalidText(line: 1) }
        return Array(text.utf8)
    }

    private static func keyword(_ property: VCardProperty) -> String {
        VCardText.trimmed(String(decoding: property.value, as: UTF8.self)).uppercased()
    }

    /// The properties of the open card that pwnvault uses, kept until `END:VCARD` so that they are
    /// decoded knowing the card's version wherever `VERSION` stood.
    private struct Card {
        let line: Int
        var version: VCardVersion?
        var names: [VCardProperty] = []
        var structuredName: VCardProperty?
        var organization: VCardProperty?
        var emails: [VCardProperty] = []
        var phones: [VCardProperty] = []

        init(line: Int) { self.line = line }

        mutating func add(_ property: VCardProperty) throws {
            // Damaged quoted-printable or base64 is refused in every property, used or not.
            _ = try VCardText.transferDecoded(property)
            switch property.name {
            case "VERSION":
                let text = VCardText.trimmed(String(decoding: property.value, as: UTF8.self))
                guard let v = VCardVersion(rawValue: text) else { throw VCardError.unsupportedVersion(line: property.line) }
                version = v
            case "FN": names.append(property)
            case "N": if structuredName == nil { structuredName = property }
            case "ORG": if organization == nil { organization = property }
            case "EMAIL": emails.append(property)
            case "TEL": phones.append(property)
            default: break
            }
        }

        func contact() throws -> VCardContact {
            VCardContact(line: line, version: version, formattedName: try formattedName(),
                         structuredName: try structuredName.flatMap(readingOrderName),
                         organization: try organization.flatMap(organizationName),
                         emails: try addresses(emails, scheme: "mailto:"), phones: try addresses(phones, scheme: "tel:"))
        }

        /// The most preferred non-empty `FN` (4.0 allows several, with `PREF`); the first on a tie.
        private func formattedName() throws -> String? {
            var best: (preference: Int, name: String)?
            for p in names {
                guard let name = nonEmpty(VCardText.unescaped(try text(p))) else { continue }
                let preference = p.preference ?? Int.max
                if best == nil || preference < best!.preference { best = (preference, name) }
            }
            return best?.name
        }

        /// `N` is Family;Given;Additional;Prefix;Suffix, each possibly a comma list: shown as
        /// "Prefix Given Additional Family Suffix".
        private func readingOrderName(_ p: VCardProperty) throws -> String? {
            let parts = VCardText.split(try text(p), on: ";").map { component in
                VCardText.split(component, on: ",").map { VCardText.trimmed(VCardText.unescaped($0)) }
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
            let order = [3, 1, 2, 0, 4].filter { $0 < parts.count }
            return nonEmpty(order.map { parts[$0] }.filter { !$0.isEmpty }.joined(separator: " "))
        }

        /// `ORG` is Name;Unit;…: the organisation's name.
        private func organizationName(_ p: VCardProperty) throws -> String? {
            VCardText.split(try text(p), on: ";").lazy.compactMap { nonEmpty(VCardText.unescaped($0)) }.first
        }

        private func addresses(_ properties: [VCardProperty], scheme: String) throws -> [VCardAddress] {
            try properties.compactMap { p in
                var value = VCardText.trimmed(VCardText.unescaped(try text(p)))
                    .trimmingWhitespaceAndNewlines()
                if value.lowercased().hasPrefix(scheme) { value = String(value.dropFirst(scheme.count)) }
                return value.isEmpty ? nil : VCardAddress(value: value, line: p.line)
            }
        }

        private func text(_ p: VCardProperty) throws -> String { try VCardText.decode(p, version: version) }

        private func nonEmpty(_ s: String) -> String? {
            let t = s.trimmingWhitespaceAndNewlines()
            return t.isEmpty ? nil : t
        }
    }
}
