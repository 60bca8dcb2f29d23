/// Which export a file is, from its content (never its name): a JSON object (Bitwarden), XML whose
/// root is `KeePassFile`, or a CSV header row one of the CSV formats writes. A folder is a `pass` store
/// when it holds `.gpg-id` or `.gpg` files.
enum LoginExportDetector {
    /// The format of `input`; throws when it is none pwnvault reads, or cannot be text.
    static func detect(_ input: [UInt8]) throws -> LoginExportFormat {
        try LoginExportReader.checkText(input)
        switch firstSignificantByte(input) {
        case UInt8(ascii: "{"): return .bitwardenJSON
        case UInt8(ascii: "<"): return .keepassXML
        default: break
        }
        guard let header = CSVLoginReader.header(of: input) else { throw LoginReadError.unknownFormat }
        guard let format = CSVLoginColumns.detectionOrder.first(where: { CSVLoginColumns.of($0)?.matches(header) ?? false }) else {
            throw LoginReadError.unknownFormat
        }
        return format
    }

    /// A folder's entries (names only) are a `pass` store's.
    static func isPassStore(entries: [String]) -> Bool {
        entries.contains(".gpg-id") || entries.contains { $0.hasSuffix(".gpg") }
    }

    /// The first byte that is not a byte-order mark or white space.
    static func firstSignificantByte(_ input: [UInt8]) -> UInt8? {
        var i = (input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF) ? 3 : 0
        while i < input.count, [0x20, 0x09, 0x0A, 0x0D].contains(input[i]) { i += 1 }
        return i < input.count ? input[i] : nil
    }
}

/// Reads the logins of an export: checks it is text of a sane size, finds or takes its format, and
/// hands it to the family's reader.
enum LoginExportReader {
    /// Far more than any export: 2,000 logins are about 1 MiB.
    static let maxBytes = 64 * 1024 * 1024

    /// The logins of `input`, read as `format` when given (`--format`), else as detected.
    static func read(_ input: [UInt8], format: LoginExportFormat? = nil) throws -> LoginReading {
        try checkText(input)
        let format = try format ?? LoginExportDetector.detect(input)
        switch format {
        case .bitwardenJSON: return try BitwardenJSONReader.read(input)
        case .keepassXML: return try KeePassXMLReader.read(input)
        case .passStore: throw LoginReadError.passStoreIsAFolder   // a folder is read by PassStoreReader
        default: return try CSVLoginReader.read(input, format: format)
        }
    }

    /// Refuses what cannot be an export before any reader sees it.
    static func checkText(_ input: [UInt8]) throws {
        guard input.count <= maxBytes else { throw LoginReadError.tooLarge(limit: maxBytes) }
        if input.count >= 2, (input[0] == 0xFF && input[1] == 0xFE) || (input[0] == 0xFE && input[1] == 0xFF) {
            throw LoginReadError.utf16
        }
        if input.contains(0) { throw LoginReadError.binary }
        guard LoginExportDetector.firstSignificantByte(input) != nil else { throw LoginReadError.empty }
    }
}
