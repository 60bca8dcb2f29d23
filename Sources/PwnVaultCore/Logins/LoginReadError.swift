/// Why an export was refused whole. Nothing from the file is repeated but a column name, screened; the
/// caller adds which file and that nothing was imported.
enum LoginReadError: UserFacingError, Equatable, Sendable {
    /// Larger than `LoginExportReader.maxBytes`.
    case tooLarge(limit: Int)
    /// No bytes, or only blank lines.
    case empty
    /// A NUL byte (a binary file, or UTF-16 without a byte-order mark).
    case binary
    /// UTF-16 with a byte-order mark (some Windows tools save CSV so).
    case utf16
    /// Not any format pwnvault reads.
    case unknownFormat
    /// `--format` named a CSV format, but the header row lacks columns that format always has.
    case wrongHeader(LoginExportFormat, missing: [String])
    /// Bitwarden's encrypted JSON (account-bound or password-protected).
    case encryptedBitwarden
    /// `{…}` that is not valid JSON, or JSON that is not a Bitwarden export.
    case notBitwardenJSON
    /// XML that is broken (on `line`) or uses what no KeePass export does (a DOCTYPE).
    case invalidXML(line: Int)
    /// Well-formed XML whose root is not `KeePassFile`.
    case notKeePassXML
    /// `pass` named for a file: a `pass` store is a folder (`PassStoreReader`).
    case passStoreIsAFolder

    var message: String {
        switch self {
        case let .tooLarge(limit): return msg("the file is larger than {1} MiB; no password export is that big", limit / (1024 * 1024))
        case .empty: return msg("the file is empty")
        case .binary: return msg("a NUL byte; this is not a text export")
        case .utf16: return msg("the file is UTF-16 text; pwnvault reads exports in UTF-8")
        case .unknownFormat: return msg("the file is no password export pwnvault knows (it reads: {1})", LoginExportFormat.optionValues)
        case let .wrongHeader(format, missing):
            return msg("the first line is not the header of {1}: it has no column {2}", format.programName,
                       missing.map { Sanitizer.singleLine($0) }.joined(separator: ", "))
        case .encryptedBitwarden: return msg("the Bitwarden export is encrypted; pwnvault reads only unencrypted exports")
        case .notBitwardenJSON: return msg("the JSON file is not a Bitwarden export (it has no items)")
        case let .invalidXML(line): return msg("line {1}: the XML is broken, or uses a DOCTYPE, which no KeePass export does", line)
        case .notKeePassXML: return msg("the XML file is not a KeePass 2 export (its root is not KeePassFile)")
        case .passStoreIsAFolder: return msg("a pass store is a folder of .gpg files, not a file")
        }
    }

    var hint: String? {
        switch self {
        case .encryptedBitwarden:
            return msg("export again as .json without encryption, import it, then delete the export")
        case .unknownFormat, .wrongHeader:
            return msg("name the format with --format, or export again from the password manager")
        case .utf16, .binary:
            return msg("export again as CSV in UTF-8")
        default: return nil
        }
    }

    var exitStatus: ExitStatus { .usage }
}
