import FoundationEssentials

/// A label that may stand in for an account: one line of plain text, at most `maxLength` characters,
/// carrying no account (no e-mail address, no phone number, none of the vault's accounts).
public struct AccountLabel: Sendable, Equatable {
    public static let maxLength = 64

    let text: String

    /// Why a label cannot be used. Never repeats the label.
    public enum Problem: Error, Equatable, Sendable {
        case controlCharacters
        case tooLong(max: Int)
        case carriesAccount(LabelScreen.Finding)

        public var reason: String {
            switch self {
            case .controlCharacters: return msg("it contains control characters")
            case let .tooLong(max): return msg(one: "it is longer than {1} character", many: "it is longer than {1} characters", count: max, max)
            case let .carriesAccount(finding): return finding.reason
            }
        }
    }

    /// The label trimmed, or nil when nothing is left; throws when it cannot be used.
    /// `accounts`: the vault's accounts; `adding`: those the label is for, when they are not in it yet.
    /// `checker`: ICU's spoof checker when it could be loaded, to read look-alike letters too (`LabelScreen`).
    /// `readings`: the labels already read in this run (`LabelReadings`).
    public static func screened(_ raw: String, accounts: [Account] = [], adding: [ParsedAccount] = [],
                                checker: ICUSpoofChecker? = nil, readings: LabelReadings? = nil) throws(Problem) -> AccountLabel? {
        let label = raw.trimmingWhitespaceAndNewlines()
        if label.isEmpty { return nil }
        guard Sanitizer.singleLine(label) == label else { throw .controlCharacters }
        guard label.count <= maxLength else { throw .tooLong(max: maxLength) }
        if let finding = LabelScreen.finding(in: label, accounts: accounts, adding: adding, checker: checker, readings: readings) { throw .carriesAccount(finding) }
        return AccountLabel(text: label)
    }

    /// Set when the label is, word for word, the part before `@` of one of the addresses (`Alice` for
    /// `alice@example.com`): kept, but its owner is told.
    public func caution(accounts: [Account] = [], adding: [ParsedAccount] = []) -> LabelScreen.Caution? {
        LabelScreen.caution(in: text, accounts: accounts, adding: adding)
    }
}

/// A label stands in for an account but may still be personal (a name): it is shown only through
/// `Disclosure`, and prints as `AccountLabel(redacted)`.
extension AccountLabel: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "AccountLabel(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
