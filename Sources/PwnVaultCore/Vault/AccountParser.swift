import FoundationEssentials

// The three types below live in one file on purpose: `ParsedAccount` and `AccountParseError` exist only
// as the parser's result and failure, and reading them next to the rules that produce them is clearer.

/// An account the user entered, checked and normalised by `AccountParser`.
public struct ParsedAccount: Equatable, Sendable {
    /// What the user typed, with surrounding whitespace trimmed. Internal, like `Account.entered`:
    /// only `Disclosure` shows it.
    let entered: String
    /// The form used for API queries: e-mail `local@lower-cased.domain`, phone E.164 (`+447700900123`,
    /// libphonenumber's reading; vaults written before it may hold `digits` as typed), username as
    /// entered. Always in Unicode NFC.
    let normalized: String
    public let kind: AccountKind
    /// What two entries are "the same account" by: the normalised form, fully lower-cased
    /// (HIBP searches case-insensitively).
    public let dedupKey: AccountKey
    /// A phone number's extension (`tel:+1-555-555-5555;ext=5555`) was left out: HIBP knows numbers.
    public let droppedExtension: Bool

    init(entered: String, normalized: String, kind: AccountKind, dedupKey: String, droppedExtension: Bool = false) {
        self.entered = entered; self.normalized = normalized; self.kind = kind; self.dedupKey = AccountKey(dedupKey)
        self.droppedExtension = droppedExtension
    }

    /// Whether HIBP's public test key may look this account up (`hibp-integration-tests.com`).
    public var isOnTestDomain: Bool { APIKey.allOnTestDomain([normalized]) }
}

extension ParsedAccount: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "ParsedAccount(\(kind.rawValue), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["kind": kind]) }
}

/// Why an entered account was refused. The message says why and never repeats the rejected text,
/// because error output can end up in logs; the caller names the argument position or line number.
public enum AccountParseError: UserFacingError, Equatable, Sendable {
    case empty
    case controlCharacter
    case whitespaceInside
    case tooManyAtSigns
    case emptyLocalPart
    case localPartTooLong
    case invalidLocalPartCharacter
    case emptyDomain
    case domainWithoutDot
    case emptyDomainLabel
    case domainLabelTooLong
    case invalidDomainCharacter
    case domainLabelHyphen
    case numericTopLevelDomain
    case emailTooLong
    case phoneDigitCount(Int)
    case phoneMisplacedPlus
    case phoneParentheses
    case phoneWithoutRegion
    case phoneTooShort
    case phoneTooLong
    case phoneInvalidLength
    case phoneUnreadable
    case shortNumber
    case usernameTooLong
    case invalidUsernameCharacter
    case usernameDotsOnly

    public var message: String {
        switch self {
        case .empty: return msg("the account is empty")
        case .controlCharacter: return msg("the account contains a control character, an invisible formatting character or an unassigned code point")
        case .whitespaceInside: return msg("the account contains a space (only phone numbers may)")
        case .tooManyAtSigns: return msg("the e-mail address contains more than one '@'")
        case .emptyLocalPart: return msg("the e-mail address has nothing before the '@'")
        case .localPartTooLong: return msg("the part of the e-mail address before the '@' is longer than 64 bytes")
        case .invalidLocalPartCharacter:
            return msg("the part of the e-mail address before the '@' contains a character e-mail addresses cannot have")
        case .emptyDomain: return msg("the e-mail address has nothing after the '@'")
        case .domainWithoutDot: return msg("the domain of the e-mail address has no dot")
        case .emptyDomainLabel: return msg("the domain of the e-mail address has an empty part (a dot at the start or end, or two in a row)")
        case .domainLabelTooLong: return msg("a part of the domain of the e-mail address is longer than 63 bytes")
        case .invalidDomainCharacter: return msg("the domain of the e-mail address contains a character domain names cannot have")
        case .domainLabelHyphen: return msg("a part of the domain of the e-mail address starts or ends with a hyphen")
        case .numericTopLevelDomain: return msg("the domain of the e-mail address ends in a number, not a name")
        case .emailTooLong: return msg("the e-mail address is longer than 254 bytes")
        case let .phoneDigitCount(n):
            return msg(one: "the phone number has {1} digit; it needs 7 to 15", many: "the phone number has {1} digits; it needs 7 to 15", count: n, n)
        case .phoneMisplacedPlus: return msg("the phone number has a '+' that is not at its start")
        case .phoneParentheses: return msg("the phone number has unbalanced or nested parentheses")
        case .phoneWithoutRegion: return msg("the phone number has no country code, and no region is set to read it in")
        case .phoneTooShort: return msg("the phone number is too short for its country (or lacks its area code)")
        case .phoneTooLong: return msg("the phone number is too long for its country")
        case .phoneInvalidLength: return msg("the phone number has a length its country's numbers never have")
        case .phoneUnreadable: return msg("the phone number cannot be read as one")
        case .shortNumber: return msg("the account is a number too short to be a phone number, so it is not taken for a username either")
        case .usernameTooLong: return msg("the username is longer than 64 characters")
        case .invalidUsernameCharacter:
            return msg("the username contains a character other than letters, digits, '.', '_' and '-'")
        case .usernameDotsOnly:
            return msg("the username is made of dots only, which Have I Been Pwned cannot look up")
        }
    }

    public var hint: String? {
        if self == .phoneWithoutRegion {
            return msg("write it with its country code (+44 7700 900123), or name its country with --region GB (add, import) or a locale such as LANG=en_GB.UTF-8")
        }
        if self == .shortNumber {
            return msg("write a username with a letter in it, or a phone number in full (+44 7700 900123)")
        }
        if self == .usernameDotsOnly {
            return msg("in a web address '.' and '..' are steps between folders, so HIBP never sees them as a name; a username needs a letter, a digit, '_' or '-'")
        }
        return msg("accepted forms: an e-mail address (name@example.com), a phone number with its country code (+44 20 7946 0958) or as dialled in your region (--region), or a username of up to 64 letters, digits, '.', '_' and '-'")
    }

    public var exitStatus: ExitStatus { .usage }
}

/// Tells e-mail addresses, phone numbers and usernames apart, refuses everything else, and normalises.
public enum AccountParser {
    static let maxLocalPartBytes = 64
    static let maxEmailBytes = 254
    static let maxLabelBytes = 63
    static let phoneDigits = 7...15
    static let maxUsernameCharacters = 64

    /// Parses one entered account; phone numbers are read into E.164 by `phones` (libphonenumber,
    /// loaded at the first one). Throws `AccountParseError` (exit status `.usage`), or
    /// `PhoneLibraryError` when a phone number is met and libphonenumber cannot be loaded.
    public static func parse(_ raw: String, phones: PhoneNumbering) throws -> ParsedAccount {
        let entered = raw.trimmingWhitespaceAndNewlines()
        guard !entered.isEmpty else { throw AccountParseError.empty }
        guard !entered.unicodeScalars.contains(where: isForbiddenScalar) else { throw AccountParseError.controlCharacter }
        // Canonically equivalent spellings (é as one scalar or as e + accent) must be one account.
        let text = entered.canonicallyComposed

        if text.contains("@") {
            let normalized = try normalizeEmail(text)
            return ParsedAccount(entered: entered, normalized: normalized, kind: .email, dedupKey: normalized.lowercased())
        }
        if let phone = try phoneText(text) {
            let reading: PhoneNumberLibrary.Reading
            switch try phones.read(phone) {
            case let .success(r): reading = r
            case .failure(.noRegion): throw AccountParseError.phoneWithoutRegion
            case .failure(.tooShort): throw AccountParseError.phoneTooShort
            case .failure(.tooLong): throw AccountParseError.phoneTooLong
            case .failure(.invalidLength): throw AccountParseError.phoneInvalidLength
            case .failure(.notANumber), .failure(.failed): throw AccountParseError.phoneUnreadable
            }
            // Two forms of one number (07700 900123 in GB, +44 7700 900123) are one account.
            return ParsedAccount(entered: entered, normalized: reading.e164, kind: .phone, dedupKey: reading.e164,
                                 droppedExtension: reading.hadExtension)
        }
        try validateUsername(text)
        return ParsedAccount(entered: entered, normalized: text, kind: .username, dedupKey: text.lowercased())
    }

    // MARK: e-mail

    private static func normalizeEmail(_ text: String) throws -> String {
        guard !text.unicodeScalars.contains(where: isWhitespace) else { throw AccountParseError.whitespaceInside }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw AccountParseError.tooManyAtSigns }
        let local = parts[0], domain = parts[1]

        guard !local.isEmpty else { throw AccountParseError.emptyLocalPart }
        guard local.utf8.count <= maxLocalPartBytes else { throw AccountParseError.localPartTooLong }
        // RFC 5321 dot-atom text plus UTF-8 (RFC 6531). Quoted local parts are refused. Dots are not
        // checked for position: legacy carrier addresses (`a..b.@docomo.ne.jp`) exist and appear in breaches.
        guard local.unicodeScalars.allSatisfy(isLocalPartScalar) else { throw AccountParseError.invalidLocalPartCharacter }

        guard !domain.isEmpty else { throw AccountParseError.emptyDomain }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw AccountParseError.domainWithoutDot }
        for label in labels {
            guard !label.isEmpty else { throw AccountParseError.emptyDomainLabel }
            // The 63-byte limit is on the encoded label; UTF-8 length is a close, simple stand-in for
            // the Punycode length of Unicode labels.
            guard label.utf8.count <= maxLabelBytes else { throw AccountParseError.domainLabelTooLong }
            guard label.unicodeScalars.allSatisfy(isDomainScalar) else { throw AccountParseError.invalidDomainCharacter }
            guard label.first != "-", label.last != "-" else { throw AccountParseError.domainLabelHyphen }
        }
        guard !labels[labels.count - 1].allSatisfy(\.isASCIIDigit) else { throw AccountParseError.numericTopLevelDomain }

        let normalized = String(local) + "@" + domain.lowercased()
        guard normalized.utf8.count <= maxEmailBytes else { throw AccountParseError.emailTooLong }
        return normalized
    }

    private static func isLocalPartScalar(_ s: Unicode.Scalar) -> Bool {
        if s.value >= 0x80 { return true }   // controls and invisible formatting were refused earlier
        if isASCIIDigit(s) || isASCIILetter(s) { return true }
        return "!#$%&'*+-/=?^_`{|}~.".unicodeScalars.contains(s)
    }

    private static func isDomainScalar(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 {
            return isASCIIDigit(s) || isASCIILetter(s) || s == "-"
        }
        // IDN labels: letters, combining marks and digits of any script; no symbols, punctuation or emoji.
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        case .format:
            return s.value == 0x200C || s.value == 0x200D   // ZWNJ/ZWJ (IDNA2008 CONTEXTJ)
        default:
            return false
        }
    }

    // MARK: phone

    /// The text to hand libphonenumber, nil when `text` is not written like a phone number (then it may be
    /// a username). A `tel:` URI goes as it is: libphonenumber reads RFC 3966 (`;ext=`, `;phone-context=`).
    private static func phoneText(_ text: String) throws -> String? {
        if text.lowercased().hasPrefix("tel:") { return text }
        let scalars = Array(text.unicodeScalars)
        // "123" was once a username; as a username it is as likely to be a mistyped or partial number.
        if scalars.allSatisfy(isASCIIDigit), scalars.count < phoneDigits.lowerBound { throw AccountParseError.shortNumber }
        guard scalars.allSatisfy({ isASCIIDigit($0) || "+ -.()".unicodeScalars.contains($0) }),
              scalars.contains(where: isASCIIDigit) else { return nil }
        let digits = String(String.UnicodeScalarView(scalars.filter(isASCIIDigit)))
        let hasPlus = scalars.contains("+")
        // Only digits, dashes and dots are also a valid username ("2024-01", "1.2"): a phone number only
        // when the digit count fits. A '+', a space or a parenthesis can only be a phone number.
        let onlyPhone = hasPlus || scalars.contains(where: { $0 == " " || $0 == "(" || $0 == ")" })
        guard onlyPhone || phoneDigits.contains(digits.count) else { return nil }

        if hasPlus {
            guard scalars.firstIndex(of: "+") == 0, scalars.lastIndex(of: "+") == 0 else { throw AccountParseError.phoneMisplacedPlus }
        }
        var depth = 0
        for s in scalars {
            if s == "(" { depth += 1; guard depth == 1 else { throw AccountParseError.phoneParentheses } }
            if s == ")" { depth -= 1; guard depth == 0 else { throw AccountParseError.phoneParentheses } }
        }
        guard depth == 0 else { throw AccountParseError.phoneParentheses }
        guard phoneDigits.contains(digits.count) else { throw AccountParseError.phoneDigitCount(digits.count) }
        return text
    }

    // MARK: username

    private static func validateUsername(_ text: String) throws {
        guard !text.unicodeScalars.contains(where: isWhitespace) else { throw AccountParseError.whitespaceInside }
        guard text.allSatisfy(isUsernameCharacter) else { throw AccountParseError.invalidUsernameCharacter }
        guard text.count <= maxUsernameCharacters else { throw AccountParseError.usernameTooLong }
        // HIBP takes the account as one path segment: "." and ".." are read as steps in the address
        // (RFC 3986 §5.2.4) before any server sees a name, so a username of dots only can never be
        // checked. (Empty after trimming is refused above; e-mail addresses and phone numbers always
        // have more than dots.)
        guard !text.allSatisfy({ $0 == "." }) else { throw AccountParseError.usernameDotsOnly }
    }

    private static func isUsernameCharacter(_ c: Character) -> Bool {
        if c == "." || c == "_" || c == "-" { return true }
        guard let first = c.unicodeScalars.first else { return false }
        // A letter or decimal digit of any script, with any combining marks it carries.
        let base = first.properties.generalCategory
        let baseOK: Bool
        switch base {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            baseOK = true
        default:
            baseOK = false
        }
        return baseOK && c.unicodeScalars.dropFirst().allSatisfy {
            switch $0.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return false
            }
        }
    }

    // MARK: characters

    private static func isASCIIDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    private static func isASCIILetter(_ s: Unicode.Scalar) -> Bool {
        (s.value >= 0x41 && s.value <= 0x5A) || (s.value >= 0x61 && s.value <= 0x7A)
    }

    private static func isWhitespace(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace }

    /// Controls (C0, DEL, C1) and invisible formatting characters (bidi controls, zero-width spaces,
    /// byte-order marks), except the zero-width (non-)joiners some scripts need.
    private static func isForbiddenScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        case .format:
            return s.value != 0x200C && s.value != 0x200D
        default:
            return false
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
