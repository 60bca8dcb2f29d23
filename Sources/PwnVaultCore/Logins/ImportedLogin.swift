/// One login as an export gives it, before anything is stored: where it is in the file, its web
/// address and site, its user name or e-mail, its password (in self-wiping memory, only for the
/// import's in-memory checks) and when the password was set, where the export says.
///
/// Text from the file is screened (`Sanitizer.singleLine`) before it is kept here. It prints as
/// nothing but its position: its address, account and password are vault data and a secret.
struct ImportedLogin: Sendable {
    /// Where it is: the CSV record's first line, the JSON item's number, or the XML entry's line.
    let position: LoginPosition
    /// The web address as the export wrote it, screened, at most `maxTextLength` characters.
    let url: String
    /// Its site, or why it has none (the login is kept either way).
    let site: Result<LoginSite, LoginSiteProblem>
    /// The user name or e-mail address, screened; empty when the export has none.
    let username: String
    /// The password's bytes; nil when the entry has none.
    let password: SecretBytes?
    /// When the password was set, where the export says; nil is "unknown".
    let passwordDate: LoginPasswordDate?

    /// Longer text is cut: no address or user name is longer, and output must stay bounded.
    static let maxTextLength = 2048

    init(position: LoginPosition, url rawURL: String, username rawUsername: String, password: SecretBytes?,
         passwordDate: LoginPasswordDate?) {
        self.position = position
        let url = String(Sanitizer.singleLine(rawURL).prefix(Self.maxTextLength))
        self.url = url
        self.site = LoginSite.of(url)
        self.username = String(Sanitizer.singleLine(rawUsername).trimmingWhitespace().prefix(Self.maxTextLength))
        self.password = password
        self.passwordDate = passwordDate
    }
}

/// Where a login or a skipped entry is in its export.
enum LoginPosition: Equatable, Sendable {
    /// CSV and XML: physical lines, from 1 (a CSV record with quoted line breaks spans several).
    case lines(Int, Int)
    /// JSON: the item's number in the export's `items`, from 1.
    case entry(Int)

    /// "line 12", "lines 12-14", "entry 3": for messages.
    func describe(_ reason: String) -> String {
        switch self {
        case let .lines(first, last) where last > first: return msg("lines {1}: {2}", "\(first)-\(last)", reason)
        case let .lines(first, _): return msg("line {1}: {2}", first, reason)
        case let .entry(n): return msg("entry {1}: {2}", n, reason)
        }
    }
}

extension ImportedLogin: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String { "ImportedLogin(\(position), redacted)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["position": position]) }
}

/// An entry of an export that was not read as a login, and why (never what it holds).
struct LoginSkip: Equatable, Sendable {
    let position: LoginPosition
    let problem: LoginSkipProblem

    /// "line 12: why", "entry 3: why".
    var message: String { position.describe(problem.reason) }
}

/// Why an entry of an export is not a login pwnvault reads.
enum LoginSkipProblem: Equatable, Sendable {
    /// A quoted CSV field still open at the end of the file: the record (and the file) is cut off.
    case unterminatedQuote
    /// A CSV field longer than `CSVReader.maxFieldBytes`.
    case fieldTooLarge
    /// Text that is not UTF-8.
    case invalidText
    /// A secure note, card, identity or other item that is not a login.
    case notALogin
    /// Neither a web address, a user name nor a password.
    case empty
    /// A JSON item whose members are not of the types Bitwarden writes.
    case unreadableItem
    /// An entry in the recycle bin (KeePass) or the trash (Bitwarden): deleted by its owner.
    case deleted
    /// A `pass` entry the user's gpg could not decrypt (no secret key, agent refused, not OpenPGP).
    case cannotDecrypt

    var reason: String {
        switch self {
        case .unterminatedQuote: return msg("a quoted field that never ends (the file is cut off here)")
        case .fieldTooLarge: return msg("a field larger than {1} MiB", CSVReader.maxFieldBytes / (1024 * 1024))
        case .invalidText: return msg("text that is not UTF-8")
        case .notALogin: return msg("not a login (a note, card or identity)")
        case .empty: return msg("an entry without a web address, user name or password")
        case .unreadableItem: return msg("an item that is not in the shape Bitwarden writes")
        case .deleted: return msg("in the recycle bin (deleted in the password manager)")
        case .cannotDecrypt: return msg("gpg could not decrypt it (is its secret key in your keyring?)")
        }
    }
}

/// What reading an export gave: its format, the logins in file order, and the entries left out.
struct LoginReading: Sendable {
    let format: LoginExportFormat
    var logins: [ImportedLogin] = []
    var skipped: [LoginSkip] = []
}

extension LoginReading: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String { "LoginReading(\(format.optionValue), \(logins.count) logins, \(skipped.count) skipped)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["format": format, "logins": logins.count, "skipped": skipped]) }
}
