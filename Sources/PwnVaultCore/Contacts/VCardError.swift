/// Why a contacts file was refused. Every case names the line (counted from 1, as an editor shows it)
/// and never repeats what the line holds: contacts files are full of addresses, and error output can
/// end up in logs. The caller adds which file and that nothing was added.
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

    /// The line the problem is on; nil for problems of the whole file.
    public var line: Int? {
        switch self {
        case .tooLarge, .empty: return nil
        case let .binary(line), let .outsideCard(line), let .nestedBegin(line, _), let .notAVCard(line),
             let .endWithoutBegin(line), let .mismatchedEnd(line), let .missingEnd(line), let .missingColon(line),
             let .invalidName(line), let .continuationWithoutProperty(line), let .invalidQuotedPrintable(line),
             let .invalidBase64(line), let .invalidText(line), let .unsupportedCharset(line), let .unsupportedVersion(line):
            return line
        }
    }

    public var message: String {
        switch self {
        case let .tooLarge(limit): return "the file is larger than \(limit / (1024 * 1024)) MiB; no address book is that big"
        case .empty: return "the file holds no vCard (it is empty)"
        case let .binary(line): return "line \(line): a NUL byte; this is not a vCard text file"
        case let .outsideCard(line): return "line \(line): text outside a vCard (a contact starts with BEGIN:VCARD)"
        case let .nestedBegin(line, outer): return "line \(line): BEGIN:VCARD inside the vCard that began on line \(outer) and has not ended"
        case let .notAVCard(line): return "line \(line): BEGIN of something that is not a vCard"
        case let .endWithoutBegin(line): return "line \(line): END:VCARD without a BEGIN:VCARD before it"
        case let .mismatchedEnd(line): return "line \(line): END of something other than the open vCard"
        case let .missingEnd(line): return "line \(line): BEGIN:VCARD without END:VCARD (the file ends inside this vCard)"
        case let .missingColon(line): return "line \(line): a property line without ':' (vCard lines are NAME:VALUE)"
        case let .invalidName(line): return "line \(line): a property name with characters names cannot have"
        case let .continuationWithoutProperty(line): return "line \(line): starts with a space (a folded line) but continues no property"
        case let .invalidQuotedPrintable(line):
            return "line \(line): a broken quoted-printable value ('=' must be followed by two hexadecimal digits or end a line that another line continues)"
        case let .invalidBase64(line): return "line \(line): a base64 value that does not decode"
        case let .invalidText(line): return "line \(line): text that is not valid in its character set (UTF-8 unless CHARSET says otherwise)"
        case let .unsupportedCharset(line): return "line \(line): a CHARSET this reader does not know"
        case let .unsupportedVersion(line): return "line \(line): a vCard VERSION other than 2.1, 3.0 and 4.0"
        }
    }

    public var hint: String? {
        switch self {
        case .tooLarge: return "export only the contacts you want to import"
        case .unsupportedCharset: return "export the contacts again as UTF-8 (vCard 3.0 or 4.0)"
        case .binary, .invalidText: return "export the contacts again as vCard (.vcf) in UTF-8"
        default: return "export the contacts again, or fix the line in a text editor"
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
