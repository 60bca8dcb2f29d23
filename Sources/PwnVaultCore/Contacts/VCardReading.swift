/// What `VCardParser.read` found in a file: the contacts it could read, and what it left out.
public struct VCardReading: Equatable, Sendable {
    /// The contacts, in file order.
    public internal(set) var contacts: [VCardContact] = []
    /// Lines and properties left out (unreadable lines, values that do not decode, unknown character
    /// sets, AGENT cards), in file order; the contacts around them were read.
    public internal(set) var skippedLines: [VCardSkip] = []
    /// Contacts left out whole (cut off: no `END:VCARD` before the next `BEGIN:VCARD` or the end of the
    /// file), by the line of their `BEGIN:VCARD`.
    public internal(set) var skippedContacts: [VCardSkip] = []
    /// Set when 8-bit text without `CHARSET` (vCard 2.1) was not UTF-8 and was read in a code page.
    public internal(set) var codePage: CodePage?

    /// The code page 2.1 text without `CHARSET` was read in, and where.
    public struct CodePage: Equatable, Sendable, Encodable {
        /// As iconv names it: the locale's (`KOI8-R`), or `WINDOWS-1252`.
        public let charset: String
        /// Whether it is the locale's code page (else Windows-1252, what Outlook writes).
        public let fromLocale: Bool
        /// The lines of the properties read so.
        public internal(set) var lines: [Int]

        /// One sentence for the import's notes, lines only.
        public var text: String {
            let shown = lines.prefix(10).map(String.init).joined(separator: ", ") + (lines.count > 10 ? ", …" : "")
            return fromLocale
                ? msg(one: "text without a CHARSET that is not UTF-8 (line {1}) was read as {2}, the code page of your locale",
                      many: "text without a CHARSET that is not UTF-8 (lines {1}) was read as {2}, the code page of your locale",
                      count: lines.count, shown, charset)
                : msg(one: "text without a CHARSET that is not UTF-8 (line {1}) was read as {2}, what Outlook writes (your locale names no code page)",
                      many: "text without a CHARSET that is not UTF-8 (lines {1}) was read as {2}, what Outlook writes (your locale names no code page)",
                      count: lines.count, shown, charset)
        }
    }
}

/// A reading prints as counts: its contacts hold accounts and unscreened names.
extension VCardReading: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "VCardReading(\(contacts.count) contacts, \(skippedLines.count) skipped lines, \(skippedContacts.count) skipped contacts)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["contacts": contacts, "skippedLines": skippedLines, "skippedContacts": skippedContacts,
                                "codePage": codePage as Any])
    }
}
