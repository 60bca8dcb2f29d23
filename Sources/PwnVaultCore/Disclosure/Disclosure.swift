import Foundation

/// THE disclosure gate: the one policy by which vault data (accounts, labels, which breaches an
/// account is in) becomes text that leaves the process, on any output: stdout, stderr, `--json`, the
/// pager, progress lines, pickers, notifications, any screen.
///
/// It is enforced by types, not by convention: `Account` and `ParsedAccount` keep their characters
/// (`entered`, `normalized`, `label`) and `CheckResult` its breach names `internal` to PwnVaultCore, so
/// the command-line layer cannot read them except through this type. What it hands out depends on the
/// output mode:
///
/// | mode | account | label | breaches |
/// |---|---|---|---|
/// | terminal | masked `a•••e@e•••.com` | as typed, account-like parts masked | not sensitive: named; sensitive: counted |
/// | terminal, share mode | the label, else `#ID` | account-like parts `•••` | the same |
/// | pipe, file, `TERM=dumb`, `--json` | `#ID` only | account-like parts `•••` | the same |
/// | reveal (needs a `RevealGrant`) | unmasked | as typed | all, sensitive ones marked |
///
/// A breach is named only when the public catalog says it is not sensitive; when the catalog cannot
/// be had, or does not know the name, the breach is counted as not named, never guessed.
public struct Disclosure: Sendable {
    public let policy: DisplayPolicy

    public init(policy: DisplayPolicy) { self.policy = policy }

    // MARK: accounts

    /// How an account appears: masked on a terminal, its label (else `#ID`) in share mode, `#ID` elsewhere.
    public func account(_ account: Account) -> String {
        let id = "#\(account.id)"
        guard policy.terminal else { return id }
        if policy.shareMode {
            // A label with nothing left but bullets says less than the id.
            guard let l = label(account), l.contains(where: { $0.isLetter || $0.isNumber }) else { return id }
            return l
        }
        return Masking.mask(account.normalized, kind: account.kind)
    }

    /// The same rule for an account that is not in the vault (`check x@y` without --save): masked on a
    /// terminal outside share mode, otherwise `position` (where it was given, e.g. "argument 2").
    public func account(_ parsed: ParsedAccount, position: String) -> String {
        policy.showsMaskedAccounts ? Masking.mask(parsed.normalized, kind: parsed.kind) : position
    }

    /// An account as a picker shows it before it is in the vault (`import --pick`): masked, or its kind
    /// in share mode. Pickers run on a terminal only.
    public func pickerAccount(_ parsed: ParsedAccount) -> String {
        guard policy.shareMode else { return Masking.mask(parsed.normalized, kind: parsed.kind) }
        switch parsed.kind {
        case .email: return "e-mail address"
        case .phone: return "phone number"
        case .username: return "username"
        }
    }

    /// `#3  a•••e@e•••.com  Label`: the id, the masked account where accounts may show, and the label.
    public func heading(_ account: Account) -> String {
        var text = "#\(account.id)"
        if policy.showsMaskedAccounts { text += "  " + self.account(account) }
        if let l = label(account) { text += "  " + l }
        return text
    }

    /// The label cleaned for one line, with any part that looks like an account (its own, an e-mail
    /// address, a phone number) masked on a terminal and replaced by `•••` elsewhere; nil when there
    /// is no label or nothing printable is left of it.
    public func label(_ account: Account) -> String? {
        guard let raw = Self.cleanLabel(account) else { return nil }
        let masked = policy.showsMaskedAccounts
        return LabelScreen.redacting(raw, own: account) { part, kind in
            masked ? Masking.mask(kind == .email ? part.lowercased() : part, kind: kind) : Masking.bullets
        }
    }

    // MARK: breaches

    /// The breaches of a result as this output may show them: those the catalog says are not
    /// sensitive, newest first; sensitive ones and ones whose sensitivity cannot be known only counted.
    public func breaches(_ result: CheckResult, catalog: BreachCatalog?) -> DisclosedBreaches {
        var shown: [Breach] = [], sensitive = 0, unnamed = 0
        for name in result.breaches {
            guard let b = catalog?.breach(named: name) else { unnamed += 1; continue }
            if b.isSensitive { sensitive += 1 } else { shown.append(b) }
        }
        return DisclosedBreaches(shown: Self.newestFirst(shown), sensitive: sensitive, unnamed: unnamed)
    }

    // MARK: reveal

    /// The account as entered, unmasked (cleaned of anything that acts on a terminal). Needs the proof
    /// that the passphrase was typed in this run.
    public static func revealed(_ account: Account, grant: RevealGrant) -> String {
        Sanitizer.singleLine(account.entered)
    }

    /// The label as typed (cleaned for one line), for reveal.
    public static func revealedLabel(_ account: Account, grant: RevealGrant) -> String? { cleanLabel(account) }

    /// Every breach of a result, sensitive ones included, newest first; unknown names as placeholders.
    public static func revealedBreaches(_ result: CheckResult, catalog: BreachCatalog?, grant: RevealGrant) -> [Breach] {
        newestFirst(result.breaches.map { catalog?.breach(named: $0) ?? .placeholder(named: $0) })
    }

    // MARK: helpers

    static func cleanLabel(_ account: Account) -> String? {
        guard let label = account.label else { return nil }
        let cleaned = Sanitizer.singleLine(label).trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? nil : cleaned
    }

    static func newestFirst(_ breaches: [Breach]) -> [Breach] {
        breaches.enumerated().sorted { a, b in
            let da = a.element.breachDate.map { "\($0)" } ?? "", db = b.element.breachDate.map { "\($0)" } ?? ""
            return da != db ? da > db : a.offset < b.offset
        }.map(\.element)
    }
}

/// What an output may say about the breaches of one result.
public struct DisclosedBreaches: Sendable, Equatable {
    /// Breaches that may be named, newest first.
    public let shown: [Breach]
    /// Sensitive breaches: counted, never named.
    public let sensitive: Int
    /// Breaches whose catalog entry could not be had, so whether they are sensitive is unknown: counted.
    public let unnamed: Int

    public var total: Int { shown.count + sensitive + unnamed }

    /// The one-line notes for what is counted but not named ("1 sensitive breach (hidden)").
    public var countedNotes: [String] {
        var notes: [String] = []
        if sensitive > 0 { notes.append("\(sensitive) sensitive breach\(sensitive == 1 ? "" : "es") (not named)") }
        if unnamed > 0 { notes.append("\(unnamed) breach\(unnamed == 1 ? "" : "es") not named (no catalog entry to tell whether \(unnamed == 1 ? "it is" : "they are") sensitive)") }
        return notes
    }
}
