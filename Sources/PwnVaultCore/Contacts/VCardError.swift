/// What is wrong in a contacts file. Every case names the line (counted from 1, as an editor shows it)
/// and never repeats what the line holds: contacts files are full of addresses, and error output can
/// end up in logs.
///
/// Only `tooLarge`, `empty`, `noVCard`, and `binary`, `notAVCard` and `invalidText` for a file in which
/// no vCard begins are thrown (the file is refused; the caller adds which file and that nothing was
/// added). The others describe a line, property or contact that `VCardParser` skipped (`VCardSkip`).
public enum VCardError: UserFacingError, Equatable, Sendable {
    /// The file is larger than `VCardParser.maxBytes`.
    case tooLarge(limit: Int)
    /// A NUL byte: a binary file, or UTF-16 without a byte-order mark.
    case binary(line: Int)
    /// A non-blank line outside `BEGIN:VCARD` … `END:VCARD`.
    case outsideCard(line: Int)
    /// `BEGIN:VCARD` inside a card that has not ended (`outer` is where that one began).
    case nestedBegin(line: Int, outer: Int)
    /// `BEGIN:` of something other than a vCard (a calendar, …).
    case notAVCard(line: Int)
    /// `END:VCARD` with no card open.
    case endWithoutBegin(line: Int)
    /// `END:` of something other than the open card.
    case mismatchedEnd(line: Int)
    /// The file ended inside the card that began at `line`.
    case missingEnd(line: Int)
    /// A line with no `:` between the property's name and its value.
    case missingColon(line: Int)
    /// A property name (or group) with characters names cannot have.
    case invalidName(line: Int)
    /// A line that starts with a space or tab (a continuation) where no property came before.
    case continuationWithoutProperty(line: Int)
    /// A quoted-printable `=` not followed by two hexadecimal digits, or a soft line break with no line after it.
    case invalidQuotedPrintable(line: Int)
    /// A base64 value that does not decode.
    case invalidBase64(line: Int)
    /// Text that is not valid in its character set (UTF-8 unless `CHARSET` says otherwise).
    case invalidText(line: Int)
    /// A `CHARSET` this reader does not know.
    case unsupportedCharset(line: Int)
    /// A `VERSION` other than 2.1, 3.0 and 4.0.
    case unsupportedVersion(line: Int)
    /// Nothing but blank lines.
    case empty
    /// Text, but no `BEGIN:VCARD` anywhere.
    case noVCard
    /// A vCard inside a card (2.1's `AGENT`), from the line of its `BEGIN:VCARD`.
    case embeddedCard(line: Int)

    /// The line the problem is on; nil for problems of the whole file.
    public var line: Int? {
        switch self {
        case .tooLarge, .empty, .noVCard: return nil
        case let .binary(line), let .outsideCard(line), let .nestedBegin(line, _), let .notAVCard(line),
             let .endWithoutBegin(line), let .mismatchedEnd(line), let .missingEnd(line), let .missingColon(line),
             let .invalidName(line), let .continuationWithoutProperty(line), let .invalidQuotedPrintable(line),
             let .invalidBase64(line), let .invalidText(line), let .unsupportedCharset(line), let .unsupportedVersion(line),
             let .embeddedCard(line):
            return line
        }
    }

    /// "line N: " and the reason, or the reason alone for problems of the whole file.
    public var message: String { line.map { msg("line {1}: {2}", $0, reason) } ?? reason }

    /// What is wrong, without the line.
    public var reason: String {
        switch self {
        case let .tooLarge(limit): return msg("the file is larger than {1} MiB; no address book is that big", limit / (1024 * 1024))
        case .empty: return msg("the file holds no vCard (it is empty)")
        case .noVCard: return msg("the file holds no vCard (no line is BEGIN:VCARD)")
        case .binary: return msg("a NUL byte; this is not vCard text")
        case .outsideCard: return msg("text outside a vCard (a contact starts with BEGIN:VCARD)")
        case let .nestedBegin(_, outer): return msg("BEGIN:VCARD inside the vCard that began on line {1} and has not ended", outer)
        case .notAVCard: return msg("BEGIN of something that is not a vCard")
        case .endWithoutBegin: return msg("END:VCARD without a BEGIN:VCARD before it")
        case .mismatchedEnd: return msg("END of something other than the open vCard")
        case .missingEnd: return msg("BEGIN:VCARD without END:VCARD (the contact is cut off)")
        case .missingColon: return msg("a property line without ':' (vCard lines are NAME:VALUE)")
        case .invalidName: return msg("a property name with characters names cannot have")
        case .continuationWithoutProperty: return msg("starts with a space (a folded line) but continues no property")
        case .invalidQuotedPrintable:
            return msg("a broken quoted-printable value ('=' must be followed by two hexadecimal digits or end a line that another line continues)")
        case .invalidBase64: return msg("a base64 value that does not decode")
        case .invalidText: return msg("text that is not valid in its character set (UTF-8 unless CHARSET says otherwise)")
        case .unsupportedCharset: return msg("a CHARSET this reader does not know")
        case .unsupportedVersion: return msg("a vCard VERSION other than 2.1, 3.0 and 4.0")
        case .embeddedCard: return msg("a vCard inside this contact (AGENT); only the outer contact is read")
        }
    }

    public var hint: String? {
        switch self {
        case .tooLarge: return msg("export only the contacts you want to import")
        case .unsupportedCharset: return msg("export the contacts again as UTF-8 (vCard 3.0 or 4.0)")
        case .binary, .invalidText: return msg("export the contacts again as vCard (.vcf) in UTF-8")
        case .noVCard, .notAVCard, .empty: return msg("is it the right file? export the contacts as vCard (.vcf) from the address book")
        default: return msg("export the contacts again, or fix the line in a text editor")
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
