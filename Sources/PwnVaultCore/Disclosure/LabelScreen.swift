import FoundationEssentials

/// Finds what looks like an account inside a label: an e-mail address, a phone number, or one of the
/// vault's own accounts. A label stands in for an account on shared screens, in pipes and in JSON, so
/// it must never carry one. `add --label` and `import` refuse such labels; a vault that already holds
/// one has the account-like parts masked wherever the label is shown.
public enum LabelScreen {
    /// Why a label was refused. Never repeats the label, nor any account.
    public enum Finding: Equatable, Sendable {
        case emailAddress
        case phoneNumber
        case vaultAccount(id: Int)
        case accountAdded
        /// Part of a vault account: an address's domain, the address without its ending, its first
        /// part with the `@`, or six digits in a row of a phone number.
        case partOfVaultAccount(id: Int)
        case partOfAccountAdded

        public var reason: String {
            switch self {
            case .emailAddress: return msg("it contains an e-mail address")
            case .phoneNumber: return msg("it contains a phone number")
            case let .vaultAccount(id): return msg("it contains the account #{1}", id)
            case .accountAdded: return msg("it contains the account it labels")
            case let .partOfVaultAccount(id): return msg("it contains part of the account #{1}", id)
            case .partOfAccountAdded: return msg("it contains part of the account it labels")
            }
        }
    }

    /// What a label may keep, but its owner should know: it names the first part of an address
    /// (`Alice` for `alice@example.com`), which anyone who sees the label then knows.
    public enum Caution: Equatable, Sendable {
        case localPartOfVaultAccount(id: Int)
        case localPartOfAccountAdded

        public var text: String {
            switch self {
            case let .localPartOfVaultAccount(id):
                return msg("the label is the part before '@' of the account #{1}; whoever sees the label learns that part", id)
            case .localPartOfAccountAdded:
                return msg("the label is the part before '@' of the account it labels; whoever sees the label learns that part")
            }
        }
    }

    /// The first account-like part of `label`, or nil when it carries none. `accounts`: the vault's
    /// accounts, `adding`: the accounts about to be added. The label is looked at as typed and in the
    /// forms it can be read in (`FoldedLabel`); `checker`, when ICU could be loaded, adds each form's
    /// UTS #39 skeleton, so look-alike letters (Cyrillic `а` for `a`) spell nothing either.
    /// `readings`: the labels already read in this run (an import reads each name for its plan, then
    /// at the gate for the line that prints it).
    public static func finding(in label: String, accounts: [Account] = [], adding: [ParsedAccount] = [],
                               checker: ICUSpoofChecker? = nil, readings: LabelReadings? = nil) -> Finding? {
        finding(in: label, spelled: SpelledAccounts(accounts: accounts, adding: adding, checker: checker), checker: checker,
                readings: readings)
    }

    /// `finding(in:accounts:adding:checker:)` with the accounts as a label could spell them made once
    /// (`ContactImportPlan.screenLabels` screens every contact's label against the same vault).
    static func finding(in label: String, spelled: SpelledAccounts, checker: ICUSpoofChecker?,
                        readings: LabelReadings? = nil) -> Finding? {
        let reading = readings?.reading(of: label) ?? LabelReading(label)
        if let found = reading.found { return found }
        let folded = reading.folded
        // What the label says, letters and digits only, forwards and backwards (issue 30).
        if !spelled.isEmpty {
            for spelling in reading.spellings {
                guard let (owner, part) = spelled.spelled(in: spelling) else { continue }
                switch owner {
                case let .vault(id): return part ? .partOfVaultAccount(id: id) : .vaultAccount(id: id)
                case .adding: return part ? .partOfAccountAdded : .accountAdded
                }
            }
        }
        var skeletons: [String] = []
        if let checker {
            for form in folded.forms {
                guard let sk = checker.skeleton(form)?.lowercased(), !folded.forms.contains(sk), !skeletons.contains(sk) else { continue }
                if emailRanges(Array(sk.unicodeScalars)).contains(where: { hasWordEnding(Array(sk.unicodeScalars)[$0]) }) { return .emailAddress }
                skeletons.append(sk)
            }
        }
        guard !spelled.carried.isEmpty,
              let (owner, part) = spelled.carried.carried(forms: folded.forms, skeletons: skeletons, digitRuns: reading.digitRuns)
        else { return nil }
        switch owner {
        case let .vault(id): return part ? .partOfVaultAccount(id: id) : .vaultAccount(id: id)
        case .adding: return part ? .partOfAccountAdded : .accountAdded
        }
    }

    /// Whether `label` (which passed `finding`) is, word for word, the part before `@` of one of the
    /// addresses: allowed (a first name often is one), but worth a warning.
    public static func caution(in label: String, accounts: [Account] = [], adding: [ParsedAccount] = []) -> Caution? {
        let words = Set(FoldedLabel(label).folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "." && $0 != "_" && $0 != "-" && $0 != "+" }).map(String.init))
        func local(_ normalized: String, _ kind: AccountKind) -> String? {
            guard kind == .email, let at = normalized.lastIndex(of: "@") else { return nil }
            return FoldedLabel.fold(String(normalized[..<at]))
        }
        for a in accounts { if let l = local(a.normalized, a.kind), words.contains(l) { return .localPartOfVaultAccount(id: a.id) } }
        for p in adding { if let l = local(p.normalized, p.kind), words.contains(l) { return .localPartOfAccountAdded } }
        return nil
    }

    /// What `finding` reads in a label before it looks for accounts, which depends on the label's text
    /// alone: the rules on the label itself (an e-mail address or a phone number, as typed or in a
    /// folded form), its folded forms, what it says (as typed and readable) and the forms' runs of digits.
    struct LabelReading {
        /// An address or a phone number in the label itself; when set, nothing else is read.
        let found: Finding?
        let folded: FoldedLabel
        let spellings: [LabelSpelling]
        let digitRuns: [String]

        init(_ label: String) {
            folded = FoldedLabel(label)
            found = Self.labelFinding(label, folded)
            guard found == nil else { spellings = []; digitRuns = []; return }
            var spellings = [LabelSpelling(label)]
            if folded.readable != folded.folded, case let r = LabelSpelling(folded.readable), r != spellings[0] { spellings.append(r) }
            self.spellings = spellings
            digitRuns = folded.forms.flatMap(LabelScreen.digitRuns)
        }

        private static func labelFinding(_ label: String, _ folded: FoldedLabel) -> Finding? {
            let scalars = Array(label.unicodeScalars)
            if !LabelScreen.emailRanges(scalars).isEmpty { return .emailAddress }
            if !LabelScreen.phoneRanges(scalars).isEmpty { return .phoneNumber }
            for form in folded.forms {
                let s = Array(form.unicodeScalars)
                if !LabelScreen.emailRanges(s).isEmpty,
                   form == folded.folded || LabelScreen.emailRanges(s).contains(where: { LabelScreen.hasWordEnding(s[$0]) }) {
                    return .emailAddress
                }
                if !LabelScreen.phoneRanges(s).isEmpty { return .phoneNumber }
            }
            return nil
        }
    }

    /// Whether an address found in an obfuscated form ends like one: its last label letters only, two
    /// or more (`alice at example dot com`, not `lunch at 12.30`).
    private static func hasWordEnding(_ run: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let dot = run.lastIndex(of: ".") else { return false }
        let tail = run[(dot + 1)...]
        return tail.count >= 2 && tail.allSatisfy { $0.properties.isAlphabetic }
    }

    /// The digits of every run of digits and phone separators, separators dropped.
    static func digitRuns(_ form: String) -> [String] {
        var runs: [String] = [], current = ""
        for s in form.unicodeScalars {
            if s.value >= 0x30 && s.value <= 0x39 { current.unicodeScalars.append(s); continue }
            if s == " " || s == "-" || s == "." || s == "/" || s == "(" || s == ")" || s == "+" || isPhoneSeparator(s) { continue }
            if !current.isEmpty { runs.append(current); current = "" }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// Whether a label kept from before the screen (an old vault) fails it now, once what `redacting`
    /// masks is taken out: the label is then masked whole, as an account is. Its own account counts;
    /// a first name equal to its address's first part does not.
    static func failsScreen(_ label: String, own: Account, readings: LabelReadings? = nil) -> Bool {
        let rest = redacting(label, own: own) { _, _ in Masking.bullets }
        return finding(in: rest, accounts: [own], readings: readings) != nil
    }

    /// `label` with every account-like part replaced by `replacement(part, kind)`: its own account's
    /// normalised form, e-mail addresses and phone numbers.
    static func redacting(_ label: String, own: Account?, replacement: (String, AccountKind) -> String) -> String {
        var text = label
        if let own, !own.normalized.isEmpty {
            // Case-insensitive replacement of the label's own account (a username label, say), however
            // short: a label must not spell the account it stands in for.
            while let r = text.rangeIgnoringCase(of: own.normalized) {
                text.replaceSubrange(r, with: replacement(String(text[r]), own.kind))
            }
        }
        // An address needs its `@` and a phone number ASCII digits: a text with neither has nothing more
        // to replace (most names; the scan below was a share of every label the gate showed, issue 30).
        if !text.utf8.contains(where: { $0 == 0x40 || ($0 >= 0x30 && $0 <= 0x39) }) { return text }
        var scalars = Array(text.unicodeScalars)
        // Runs can overlap: a phone number inside an address (`ab1234567@x.org`), two addresses sharing
        // a domain and a local part (`a@b.c@d.e`). Each union is replaced once, from the end, so no
        // replacement moves a range still to be replaced. A union is no address and no phone number:
        // it is masked as a username (first and last character at most), since an address's mask would
        // show its "public suffix" whole, and that could be the phone number glued to it.
        var runs: [(Range<Int>, AccountKind)] = []
        // A run of more than 15 digits is no phone number by itself, but one can hide in it next to other
        // digits (`Room 123456 (555) 123-4567`): the gate hides the whole run.
        let phones = phoneRanges(scalars, maxDigits: .max)
        for (range, kind) in (emailRanges(scalars).map { ($0, AccountKind.email) } + phones.map { ($0, AccountKind.phone) })
            .sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            if let last = runs.last, range.lowerBound < last.0.upperBound {
                runs[runs.count - 1] = (last.0.lowerBound..<max(last.0.upperBound, range.upperBound), .username)
            } else {
                runs.append((range, kind))
            }
        }
        for (range, kind) in runs.reversed() {
            let part = String(String.UnicodeScalarView(scalars[range]))
            scalars.replaceSubrange(range, with: Array(replacement(part, kind).unicodeScalars))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    // MARK: detection, on Unicode scalars

    /// Characters that can be part of an e-mail address around its `@`: anything but whitespace,
    /// brackets and the punctuation that usually ends a word in prose.
    private static func isAddressCharacter(_ s: Unicode.Scalar) -> Bool {
        if s.properties.isWhitespace || s.value < 0x20 { return false }
        switch s {
        case "(", ")", "<", ">", "[", "]", "{", "}", ",", ";", ":", "\"", "'", "@": return false
        default: return true
        }
    }

    /// `local@domain.tld` runs: at least one character before the `@`, and a domain with a dot that is
    /// neither its first nor its last character.
    static func emailRanges(_ s: [Unicode.Scalar]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for at in s.indices where s[at] == "@" {
            var start = at
            while start > 0 && isAddressCharacter(s[start - 1]) { start -= 1 }
            var end = at + 1
            while end < s.count && isAddressCharacter(s[end]) { end += 1 }
            // Trailing sentence punctuation is not part of the domain.
            while end > at + 1 && (s[end - 1] == "." || s[end - 1] == "!" || s[end - 1] == "?") { end -= 1 }
            let domain = s[(at + 1)..<end]
            guard start < at, let dot = domain.firstIndex(of: "."), dot > at + 1, dot < end - 1 else { continue }
            found.append(start..<end)
        }
        return found
    }

    /// Runs of digits with the separators phone numbers are written with (space, `-`, `.`, `/`,
    /// brackets, a leading `+`) holding 7 to 15 digits, as `AccountParser` accepts them (to `maxDigits`
    /// when more may be found). A calendar date (`2024-01-15`, `15.01.2024`) is not a phone number.
    static func phoneRanges(_ s: [Unicode.Scalar], maxDigits: Int = AccountParser.phoneDigits.upperBound) -> [Range<Int>] {
        func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
        func isSeparator(_ c: Unicode.Scalar) -> Bool {
            c == " " || c == "-" || c == "." || c == "/" || c == "(" || c == ")" || c == "\u{A0}" || isPhoneSeparator(c)
        }
        var found: [Range<Int>] = []
        var i = 0
        while i < s.count {
            guard isDigit(s[i]) || (s[i] == "+" && i + 1 < s.count && isDigit(s[i + 1])) || (s[i] == "(" && i + 1 < s.count && isDigit(s[i + 1])) else {
                i += 1; continue
            }
            var j = i, digits = 0, lastDigit = i
            while j < s.count && (isDigit(s[j]) || isSeparator(s[j]) || (j == i && s[j] == "+")) {
                if isDigit(s[j]) { digits += 1; lastDigit = j }
                j += 1
            }
            let run = String(String.UnicodeScalarView(s[i...lastDigit]))
            if digits >= AccountParser.phoneDigits.lowerBound && digits <= maxDigits && !isDate(run) { found.append(i..<(lastDigit + 1)) }
            i = j
        }
        return found
    }

    /// The separators beyond ASCII a phone number can be written with: every dash (en dash, U+2010,
    /// U+2011, minus sign U+2212), the middle dots and the narrow spaces.
    static func isPhoneSeparator(_ c: Unicode.Scalar) -> Bool {
        guard c.value >= 0x80 else { return false }
        switch c.value {
        case 0x2212, 0x00B7, 0x2027, 0x2219, 0x22C5, 0x30FB, 0xFF65, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return c.properties.generalCategory == .dashPunctuation
        }
    }

    /// `YYYY-MM-DD`, `DD.MM.YYYY`, `DD/MM/YYYY` and the like: three groups of digits, one of four.
    private static func isDate(_ run: String) -> Bool {
        let groups = run.split(whereSeparator: { $0 == "-" || $0 == "." || $0 == "/" })
        guard groups.count == 3, groups.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return false }
        let lengths = groups.map(\.count)
        return lengths == [4, 2, 2] || lengths == [2, 2, 4] || lengths == [4, 1, 1] || lengths == [1, 1, 4]
            || lengths == [1, 2, 4] || lengths == [2, 1, 4]
    }
}
