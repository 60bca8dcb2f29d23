import FoundationEssentials

/// Finds what looks like an account inside a label: an e-mail address, a phone number, or one of the
/// vault's own accounts. A label stands in for an account on shared screens, in pipes and in JSON, so
/// it must never carry one. `add --label` and `import` refuse such labels; a vault that already holds
/// one has the account-like parts masked wherever the label is shown.
public enum LabelScreen {
    /// Why a label was refused. Never repeats the label.
    public enum Finding: Equatable, Sendable {
        case emailAddress
        case phoneNumber
        case vaultAccount(id: Int)
        case accountAdded

        public var reason: String {
            switch self {
            case .emailAddress: return "it contains an e-mail address"
            case .phoneNumber: return "it contains a phone number"
            case let .vaultAccount(id): return "it contains the account #\(id)"
            case .accountAdded: return "it contains the account it labels"
            }
        }
    }

    /// The first account-like part of `label`, or nil when it carries none. `accounts`: the vault's
    /// accounts, `adding`: the accounts about to be added (their normalised forms are looked for too,
    /// case-insensitively, from 3 characters on).
    public static func finding(in label: String, accounts: [Account] = [], adding: [ParsedAccount] = []) -> Finding? {
        let scalars = Array(label.unicodeScalars)
        if !emailRanges(scalars).isEmpty { return .emailAddress }
        if !phoneRanges(scalars).isEmpty { return .phoneNumber }
        let lower = label.lowercased()
        for a in accounts where a.normalized.count >= 3 && lower.contains(a.normalized.lowercased()) {
            return .vaultAccount(id: a.id)
        }
        for p in adding where p.normalized.count >= 3 && lower.contains(p.normalized.lowercased()) { return .accountAdded }
        return nil
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
        func isSeparator(_ c: Unicode.Scalar) -> Bool { c == " " || c == "-" || c == "." || c == "/" || c == "(" || c == ")" || c == "\u{A0}" }
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

    /// `YYYY-MM-DD`, `DD.MM.YYYY`, `DD/MM/YYYY` and the like: three groups of digits, one of four.
    private static func isDate(_ run: String) -> Bool {
        let groups = run.split(whereSeparator: { $0 == "-" || $0 == "." || $0 == "/" })
        guard groups.count == 3, groups.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return false }
        let lengths = groups.map(\.count)
        return lengths == [4, 2, 2] || lengths == [2, 2, 4] || lengths == [4, 1, 1] || lengths == [1, 1, 4]
            || lengths == [1, 2, 4] || lengths == [2, 1, 4]
    }
}
