import FoundationEssentials

/// What importing a contacts file would add, before the vault is touched: every address checked with
/// `AccountParser`, labelled with its contact's name, and each counted once.
///
/// The rules:
/// - An address the parser refuses (or an `EMAIL` that is not an e-mail address, a `TEL` that is not a
///   phone number, such as a `sip:` URI) is skipped and reported with its line and the reason, never its text. The file is
///   still read as a whole: one address typed wrongly into an address book years ago must not block
///   the others, and with `--pick` it may belong to a contact nobody picks. (What `VCardParser` could
///   not read at all is reported from its `VCardReading`.)
/// - A `tel:` URI's extension is dropped: the number is added, and `extensionsDropped` has its line.
/// - The second and later copies of an address in the file are reported as repeats (case-insensitive,
///   as `add` compares), not added twice; the first copy's contact gives the label.
/// - A contact with no address (none at all, or only phone numbers without `includePhones`) is counted.
/// - The label is the contact's name (`FN`, else `N`, else `ORG`), on one line, cleaned by `Sanitizer`,
///   inner whitespace collapsed, and cut to `maxLabelLength` characters, ending in "…" when cut.
///   A name that carries an account (many exports write `FN:carol@example.com` for a contact without
///   a name) is passed over for the next source, or for no label: `labelNote` says which and why.
public struct ContactImportPlan: Sendable {
    /// One address to add.
    public struct Address: Equatable, Sendable {
        /// The line its property starts on.
        public let line: Int
        public let account: ParsedAccount
    }

    /// A contact with at least one address to add.
    public struct Contact: Equatable, Sendable {
        /// The line of its `BEGIN:VCARD`.
        public let line: Int
        /// The label its addresses get; nil when the contact has no usable name.
        public let label: AccountLabel?
        /// Set when a name source was passed over because it carries an account.
        public let labelNote: LabelNote?
        public let addresses: [Address]
    }

    /// Why a contact's first name source was not used as its label, and what was used instead.
    public struct LabelNote: Equatable, Sendable {
        /// The vCard property passed over (`FN`, `N`, `ORG`).
        public let skipped: String
        /// Why, in the reader's language.
        public let reason: String
        /// Why, in English: what `import --json` writes (`labelsPassedOver[].reason`).
        public let englishReason: String
        /// The property used instead, or nil when the contact is added without a label.
        public let used: String?

        public init(skipped: String, reason: String, englishReason: String? = nil, used: String?) {
            self.skipped = skipped; self.reason = reason; self.englishReason = englishReason ?? reason; self.used = used
        }

        public var text: String {
            let why = reason.replacingLiterally("it ", with: "")
            let skipped = self.skipped == "name" ? msg("name") : self.skipped
            return used.map { msg("the contact's {1} {2}; labelled by its {3} instead", skipped, why, $0) }
                ?? msg("the contact's {1} {2}; added without a label", skipped, why)
        }
    }

    /// An address that was skipped because it is not valid.
    public struct Invalid: Equatable, Sendable, Encodable {
        public let line: Int
        /// What the property said it is: `.email` for `EMAIL`, `.phone` for `TEL`.
        public let kind: AccountKind
        /// Why, in the words of `AccountParseError` (never the address), in the reader's language.
        public let reason: String
        /// The same in English: what `import --json` writes.
        public let englishReason: String

        public init(line: Int, kind: AccountKind, reason: String) {
            self.line = line; self.kind = kind; self.reason = reason; self.englishReason = reason
        }

        /// `reason` made twice: in the reader's language, and in English for `--json`.
        init(line: Int, kind: AccountKind, reason: () -> String) {
            self.line = line; self.kind = kind; self.reason = reason(); self.englishReason = Messages.english(reason)
        }

        private enum CodingKeys: String, CodingKey { case line, kind, reason }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(line, forKey: .line)
            try c.encode(kind, forKey: .kind)
            try c.encode(englishReason, forKey: .reason)
        }
    }

    /// An address that appears again later in the file.
    public struct Repeated: Equatable, Sendable, Encodable {
        public let line: Int
        /// The line of its first appearance, the one that is imported.
        public let firstLine: Int
    }

    /// The contacts that have something to add, in file order.
    public private(set) var contacts: [Contact] = []
    /// How many contacts the file holds.
    public let contactCount: Int
    /// Contacts without any address to try (no `EMAIL`, and no `TEL` or `includePhones` off).
    public private(set) var contactsWithoutAddress = 0
    /// `TEL` values not looked at because `includePhones` was off.
    public private(set) var phonesIgnored = 0
    public private(set) var invalid: [Invalid] = []
    public private(set) var repeated: [Repeated] = []
    /// The lines of phone numbers added without the extension their `tel:` URI gave (`;ext=`).
    public private(set) var extensionsDropped: [Int] = []
    /// Whether the labels were screened with ICU's spoof checker when the plan was made.
    private let screenedWithChecker: Bool

    /// Every address to add, in file order.
    public var addresses: [Address] { contacts.flatMap(\.addresses) }

    /// Phone numbers are read with `phones`; throws `PhoneLibraryError` when one is met and
    /// libphonenumber cannot be loaded (every number would fail alike: one error, not one per line).
    /// `checker`: ICU's spoof checker when it could be loaded, for `LabelScreen`'s look-alike reading.
    /// `readings`: where the labels' readings are kept for the run (the gate reads the same names again).
    public init(contacts vcards: [VCardContact], includePhones: Bool, phones: PhoneNumbering, maxLabelLength: Int,
                checker: ICUSpoofChecker? = nil, readings: LabelReadings? = nil) throws {
        contactCount = vcards.count
        screenedWithChecker = checker != nil
        var firstLine: [AccountKey: Int] = [:]
        for card in vcards {
            var sources = card.emails.map { ($0, AccountKind.email) }
            if includePhones { sources += card.phones.map { ($0, AccountKind.phone) } } else { phonesIgnored += card.phones.count }
            guard !sources.isEmpty else { contactsWithoutAddress += 1; continue }

            var addresses: [Address] = []
            for (source, kind) in sources {
                if case let .notAPhoneNumber(scheme) = source.note {
                    invalid.append(Invalid(line: source.line, kind: kind, reason: { msg("not a phone number (a {1}: address)", scheme) }))
                    continue
                }
                let parsed: ParsedAccount
                do {
                    parsed = try AccountParser.parse(source.value, phones: phones)
                } catch let e as PhoneLibraryError {
                    throw e
                } catch {
                    invalid.append(Invalid(line: source.line, kind: kind, reason: {
                        (error as? UserFacingError)?.message ?? msg("the address is not valid")
                    }))
                    continue
                }
                guard parsed.kind == kind else {
                    invalid.append(Invalid(line: source.line, kind: kind, reason: { Self.wrongKindReason(kind) }))
                    continue
                }
                if let first = firstLine[parsed.dedupKey] {
                    repeated.append(Repeated(line: source.line, firstLine: first))
                    continue
                }
                firstLine[parsed.dedupKey] = source.line
                if source.note == .extensionDropped { extensionsDropped.append(source.line) }
                addresses.append(Address(line: source.line, account: parsed))
            }
            if !addresses.isEmpty {
                let (label, note) = Self.label(of: card, maxLength: maxLabelLength, adding: addresses.map(\.account), checker: checker,
                                             readings: readings)
                self.contacts.append(Contact(line: card.line, label: label, labelNote: note, addresses: addresses))
            }
        }
    }

    /// A contact's name made into a label: one clean line of at most `maxLength` characters, or nil
    /// when nothing printable is left.
    public static func label(_ name: String?, maxLength: Int) -> String? {
        guard let name, maxLength > 0 else { return nil }
        let words = Sanitizer.singleLine(name).split(whereSeparator: { $0.isWhitespace })
        let cleaned = words.joined(separator: " ")
        guard !cleaned.isEmpty else { return nil }
        guard cleaned.count > maxLength else { return cleaned }
        let kept = String(cleaned.prefix(maxLength - 1)).trimmingWhitespace()
        return kept + "…"
    }

    /// The first of FN, N and ORG that makes a label carrying no account, and a note when one was
    /// passed over for carrying one.
    static func label(of card: VCardContact, maxLength: Int, adding: [ParsedAccount] = [],
                      checker: ICUSpoofChecker? = nil, readings: LabelReadings? = nil) -> (AccountLabel?, LabelNote?) {
        var skipped: (property: String, reason: String, english: String)?
        for (property, value) in [("FN", card.formattedName), ("N", card.structuredName), ("ORG", card.organization)] {
            guard let text = label(value, maxLength: maxLength) else { continue }
            do {
                if let screened = try AccountLabel.screened(text, adding: adding, checker: checker, readings: readings) {
                    return (screened, skipped.map { LabelNote(skipped: $0.property, reason: $0.reason, englishReason: $0.english, used: property) })
                }
            } catch {
                if skipped == nil { skipped = (property, error.reason, Messages.english { error.reason }) }
            }
        }
        return (nil, skipped.map { LabelNote(skipped: $0.property, reason: $0.reason, englishReason: $0.english, used: nil) })
    }

    /// Screens the labels again against the vault's accounts, once the vault is open: a label that
    /// carries one (or part of one) is dropped, and its contact is added without a label. Returns the
    /// line of each such contact with its note.
    public mutating func screenLabels(against accounts: [Account], checker: ICUSpoofChecker? = nil,
                                      readings: LabelReadings? = nil) -> [(line: Int, note: LabelNote)] {
        var notes: [(line: Int, note: LabelNote)] = []
        // An empty vault leaves only the rules on the label itself (an address, a phone number in any
        // form), which every label passed when the plan was made, read as well or better then.
        if accounts.isEmpty && (checker == nil || screenedWithChecker) { return notes }
        // The vault's accounts as a label could spell them, made once for every contact.
        let spelled = SpelledAccounts(accounts: accounts, adding: [], checker: checker)
        contacts = contacts.map { contact in
            guard let label = contact.label,
                  let finding = LabelScreen.finding(in: label.text, spelled: spelled, checker: checker, readings: readings) else {
                return contact
            }
            let note = LabelNote(skipped: "name", reason: finding.reason, englishReason: Messages.english { finding.reason }, used: nil)
            notes.append((contact.line, note))
            return Contact(line: contact.line, label: nil, labelNote: note, addresses: contact.addresses)
        }
        return notes
    }

    private static func wrongKindReason(_ kind: AccountKind) -> String {
        switch kind {
        case .email: return msg("the e-mail address has no '@'")
        case .phone: return msg("the phone number is not written as one (digits, spaces, '+', '-', '.', parentheses)")
        case .username: return msg("not a username")
        }
    }
}

/// A plan, its contacts and addresses print as lines and counts: the addresses are accounts.
extension ContactImportPlan: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "ContactImportPlan(\(contacts.count) contacts, \(addresses.count) addresses)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["contacts": contacts, "contactCount": contactCount, "invalid": invalid, "repeated": repeated])
    }
}

extension ContactImportPlan.Contact: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Contact(line \(line), \(addresses.count) addresses\(label == nil ? "" : ", labelled"))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["line": line, "addresses": addresses, "labelNote": labelNote as Any]) }
}

extension ContactImportPlan.Address: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Address(line \(line), \(account.kind.rawValue))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["line": line, "account": account]) }
}
