import FoundationEssentials

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
/// | terminal | masked `a•••e@e•••.com` | as typed, account-like parts masked (a label spelling one in disguise: masked whole) | not sensitive: named; sensitive: counted |
/// | terminal, share mode | the label, else `#ID` | account-like parts `•••` | the same |
/// | pipe, file, `TERM=dumb`, `--json` | `#ID` only | account-like parts `•••` | the same |
/// | reveal (needs a `RevealGrant`) | unmasked | as typed | all, sensitive ones marked; pastes and stealer-log websites named (nowhere else) |
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
        case .email: return msg("e-mail address")
        case .phone: return msg("phone number")
        case .username: return msg("username")
        }
    }

    /// A contact's name as a picker shows it (`import --pick`, the ui's pick list): screened when the
    /// plan was made (it holds no address), cleaned for one line; shown in share mode too, like labels.
    public func pickerLabel(_ label: AccountLabel?) -> String {
        label.map { Sanitizer.singleLine($0.text) } ?? msg("(no name)")
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
    /// is no label or nothing printable is left of it. `readings`: the labels already read in this run
    /// (`import` read each name for its plan); what the label carries is decided here all the same.
    public func label(_ account: Account, readings: LabelReadings? = nil) -> String? {
        guard let raw = Self.cleanLabel(account) else { return nil }
        let masked = policy.showsMaskedAccounts
        // A label from before the screen read labels folded (an old vault) may spell an account in a way
        // `redacting` does not see (`７７００９００１２４`, `alice at example dot com`): it is masked whole,
        // by the mask's bullets in every mode (its first and last characters could be the number's).
        if LabelScreen.failsScreen(raw, own: account, readings: readings) { return Masking.bullets }
        return LabelScreen.redacting(raw, own: account) { part, kind in
            masked ? Masking.mask(kind == .email ? part.lowercased() : part, kind: kind) : Masking.bullets
        }
    }

    // MARK: breaches

    /// The breaches of a result as this output may show them: those the catalog says are not
    /// sensitive, newest first; sensitive ones and ones whose sensitivity cannot be known only counted.
    public func breaches(_ result: CheckResult, catalog: BreachCatalog?) -> DisclosedBreaches {
        breaches(named: result.breaches, catalog: catalog, isNew: { _ in false }, isAcknowledged: { _ in false })
    }

    /// The breaches of an account's latest answer, each marked new (first seen by that answer, not
    /// acknowledged) or acknowledged from the account's findings; counted ones carry their new count.
    /// Breaches the account was found in that HIBP no longer lists (`Finding.unlistedSince`) come after
    /// the answer's, marked so (history, not a cache); a retired one (the catalog marks it retired, or
    /// no longer has it) is marked retired.
    /// `includingUnlisted: false`: the latest answer's breaches only (`check`'s line, which says the
    /// change once, as news).
    public func breaches(of account: Account, catalog: BreachCatalog?, includingUnlisted: Bool = true) -> DisclosedBreaches {
        var findings: [String: Finding] = [:]
        for f in account.knownFindings where f.kind == .breach { findings[f.key] = f }
        let listed = account.result.breaches
        let unlisted = !includingUnlisted ? []
            : account.knownFindings.filter { $0.kind == .breach && !$0.isListed && !listed.contains($0.key) }.map(\.key)
        return breaches(named: listed + unlisted, catalog: catalog,
                        isNew: { findings[$0].map(account.isNew) ?? false },
                        isAcknowledged: { findings[$0]?.isAcknowledged ?? false },
                        unlistedSince: { findings[$0]?.unlistedSince })
    }

    /// Only the breaches among `names` (an answer just recorded) that `news` holds, for `watch` and
    /// notifications: what this run found for the first time (findings still listed).
    public func news(_ news: [Finding], catalog: BreachCatalog?) -> DisclosedBreaches {
        let names = news.filter { $0.kind == .breach && $0.isListed }.map(\.key)
        return breaches(named: names, catalog: catalog, isNew: { _ in true }, isAcknowledged: { _ in false })
    }

    /// The breaches among `news` that HIBP stopped listing in this run, for `check`, `watch` and
    /// notifications (not marked new: they were found earlier).
    public func unlistedNews(_ news: [Finding], catalog: BreachCatalog?) -> DisclosedBreaches {
        var since: [String: Date] = [:]
        for f in news where f.kind == .breach { if let d = f.unlistedSince { since[f.key] = d } }
        let names = news.filter { $0.kind == .breach && !$0.isListed }.map(\.key)
        return breaches(named: names, catalog: catalog, isNew: { _ in false }, isAcknowledged: { _ in false },
                        unlistedSince: { since[$0] })
    }

    private func breaches(named names: [String], catalog: BreachCatalog?, isNew: (String) -> Bool,
                          isAcknowledged: (String) -> Bool, unlistedSince: (String) -> Date? = { _ in nil }) -> DisclosedBreaches {
        var shown: [Breach] = [], sensitive = 0, unnamed = 0, newSensitive = 0, newUnnamed = 0
        var newNames: Set<String> = [], acknowledged: Set<String> = []
        var unlisted: [String: Date] = [:], retired: Set<String> = [], unlistedSensitive = 0, unlistedUnnamed = 0, removed = 0
        for name in names {
            let fresh = isNew(name)
            let since = unlistedSince(name)
            guard let b = catalog?.breach(named: name) else {
                // No longer listed, and no longer in a catalog at hand: HIBP removed (retired) it.
                if since != nil, catalog != nil { removed += 1; continue }
                unnamed += 1; if fresh { newUnnamed += 1 }; if since != nil { unlistedUnnamed += 1 }; continue
            }
            if b.isSensitive {
                sensitive += 1; if fresh { newSensitive += 1 }; if since != nil { unlistedSensitive += 1 }
            } else {
                shown.append(b)
                if fresh { newNames.insert(b.name) }
                if isAcknowledged(name) { acknowledged.insert(b.name) }
                if let since { unlisted[b.name] = since; if b.isRetired { retired.insert(b.name) } }
            }
        }
        var d = DisclosedBreaches(shown: Self.newestFirst(shown), sensitive: sensitive, unnamed: unnamed,
                                  newNames: newNames, acknowledgedNames: acknowledged,
                                  newSensitive: newSensitive, newUnnamed: newUnnamed)
        d.unlistedSince = unlisted; d.retiredNames = retired
        d.unlistedSensitive = unlistedSensitive; d.unlistedUnnamed = unlistedUnnamed; d.removed = removed
        return d
    }

    // MARK: notifications

    /// The text of a desktop notification about `news` (accounts with what this run found first):
    /// it may pop up on a shared screen or a lock screen, so accounts appear as their label (with
    /// anything account-like in it replaced by `•••`) and `#ID`, never as an account, and breaches
    /// by title only when they are not sensitive. `countOnly` says only how many accounts have news.
    public static func notificationText(_ news: [(account: Account, findings: [Finding])], catalog: BreachCatalog?,
                                        countOnly: Bool) -> (summary: String, body: String) {
        let n = news.count
        let summary = msg(one: "pwnvault: news for {1} account", many: "pwnvault: news for {1} accounts", count: n, n)
        if countOnly {
            return (summary, msg("Run 'pwnvault list' to see which."))
        }
        let gate = Disclosure(policy: DisplayPolicy(terminal: false))   // a lock screen is not a private terminal
        let lines = news.map { item -> String in
            let who = gate.label(item.account).map { "\($0) (#\(item.account.id))" } ?? "#\(item.account.id)"
            return msg("{1}: {2}", who, gate.newsParts(item.findings, catalog: catalog).joined(separator: msg("; ")))
        }
        return (summary, lines.joined(separator: "\n"))
    }

    /// The desktop notification about `news`, with the text of `notificationText`.
    public static func notification(_ news: [(account: Account, findings: [Finding])], catalog: BreachCatalog?,
                                    countOnly: Bool) -> DesktopNotification {
        let text = notificationText(news, catalog: catalog, countOnly: countOnly)
        return DesktopNotification(summary: text.summary, body: text.body)
    }

    /// What `news` holds, as short parts: breach titles (not sensitive ones), then counts
    /// ("1 sensitive breach", "2 pastes", "1 stealer-log website").
    public func newsParts(_ news: [Finding], catalog: BreachCatalog?) -> [String] {
        let disclosed = self.news(news, catalog: catalog)
        var parts = disclosed.shown.map { Sanitizer.singleLine($0.hasDetails ? $0.title : $0.name) }
        let sensitive = disclosed.sensitive, unnamed = disclosed.unnamed
        if sensitive > 0 { parts.append(msg(one: "{1} sensitive breach", many: "{1} sensitive breaches", count: sensitive, sensitive)) }
        if unnamed > 0 {
            parts.append(msg(one: "{1} breach not in the catalog", many: "{1} breaches not in the catalog", count: unnamed, unnamed))
        }
        let pastes = news.filter { $0.kind == .paste && $0.isListed }.count
        if pastes > 0 { parts.append(msg(one: "{1} paste", many: "{1} pastes", count: pastes, pastes)) }
        let sites = news.filter { $0.kind == .stealerLog && $0.isListed }.count
        if sites > 0 {
            parts.append(msg(one: "{1} website in info-stealer logs", many: "{1} websites in info-stealer logs", count: sites, sites))
        }
        return parts + unlistedParts(news, catalog: catalog)
    }

    /// What `news` says HIBP stopped listing, as short parts: `no longer listed by HIBP: Adobe, Dropbox`,
    /// `retired by HIBP: …`, then counts (sensitive, not in the catalog, pastes, stealer-log websites).
    public func unlistedParts(_ news: [Finding], catalog: BreachCatalog?) -> [String] {
        let d = unlistedNews(news, catalog: catalog)
        var parts: [String] = []
        let title = { (b: Breach) in Sanitizer.singleLine(b.hasDetails ? b.title : b.name) }
        let retired = d.shown.filter(d.isRetired), unlisted = d.shown.filter { !d.isRetired($0) }
        if !unlisted.isEmpty { parts.append(msg("no longer listed by HIBP: {1}", unlisted.map(title).joined(separator: ", "))) }
        if !retired.isEmpty { parts.append(msg("retired by HIBP: {1}", retired.map(title).joined(separator: ", "))) }
        if d.sensitive > 0 {
            parts.append(msg(one: "{1} sensitive breach no longer listed by HIBP", many: "{1} sensitive breaches no longer listed by HIBP",
                             count: d.sensitive, d.sensitive))
        }
        if d.removed > 0 {
            parts.append(msg(one: "{1} breach retired by HIBP (no longer in its catalog)", many: "{1} breaches retired by HIBP (no longer in its catalog)",
                             count: d.removed, d.removed))
        }
        if d.unnamed > 0 {
            parts.append(msg(one: "{1} breach not in the catalog no longer listed by HIBP", many: "{1} breaches not in the catalog no longer listed by HIBP",
                             count: d.unnamed, d.unnamed))
        }
        let pastes = news.filter { $0.kind == .paste && !$0.isListed }.count
        if pastes > 0 { parts.append(msg(one: "{1} paste no longer listed", many: "{1} pastes no longer listed", count: pastes, pastes)) }
        let sites = news.filter { $0.kind == .stealerLog && !$0.isListed }.count
        if sites > 0 {
            parts.append(msg(one: "{1} stealer-log website no longer listed", many: "{1} stealer-log websites no longer listed", count: sites, sites))
        }
        return parts
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

    /// Every breach the account was found in that HIBP no longer lists (not in the latest answer),
    /// sensitive ones included, newest first, with the date it stopped and whether HIBP retired it
    /// (the catalog marks it retired, or no longer has it).
    public static func revealedUnlistedBreaches(_ account: Account, catalog: BreachCatalog?,
                                                grant: RevealGrant) -> [(breach: Breach, since: Date, retired: Bool)] {
        let listed = account.result.breaches
        var since: [String: Date] = [:]
        for f in account.knownFindings where f.kind == .breach && !listed.contains(f.key) { if let d = f.unlistedSince { since[f.key] = d } }
        let breaches = account.knownFindings.filter { $0.kind == .breach && since[$0.key] != nil }.map { f -> Breach in
            catalog?.breach(named: f.key) ?? .placeholder(named: f.key)
        }
        return newestFirst(breaches).map { b in
            (b, since[b.name] ?? Date(timeIntervalSince1970: 0), b.isRetired || (catalog != nil && catalog?.breach(named: b.name) == nil))
        }
    }

    /// Every paste the account was ever found in, as stored (`Source/Id`, cleaned for one line), in
    /// the order first seen. Only reveal names them.
    public static func revealedPastes(_ account: Account, grant: RevealGrant) -> [String] {
        account.knownFindings.filter { $0.kind == .paste }.map { Sanitizer.singleLine($0.key) }
    }

    /// Every website whose info-stealer logs held the account (its domain, cleaned for one line), in
    /// the order first seen. Only reveal names them: everywhere else they are counted.
    public static func revealedStealerLogSites(_ account: Account, grant: RevealGrant) -> [String] {
        account.knownFindings.filter { $0.kind == .stealerLog }.map { Sanitizer.singleLine($0.key) }
    }

    // MARK: helpers

    static func cleanLabel(_ account: Account) -> String? {
        guard let label = account.label else { return nil }
        let cleaned = Sanitizer.singleLine(label).trimmingWhitespace()
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

    /// Names of `shown` breaches that are new (first seen by the latest answer, not acknowledged).
    public var newNames: Set<String> = []
    /// Names of `shown` breaches the user acknowledged.
    public var acknowledgedNames: Set<String> = []
    /// How many of `sensitive` and of `unnamed` are new.
    public var newSensitive = 0
    public var newUnnamed = 0
    /// `shown` breaches HIBP no longer lists, with the date it stopped (`Finding.unlistedSince`).
    public var unlistedSince: [String: Date] = [:]
    /// `shown` breaches no longer listed that the catalog marks retired.
    public var retiredNames: Set<String> = []
    /// How many of `sensitive` and of `unnamed` are no longer listed.
    public var unlistedSensitive = 0
    public var unlistedUnnamed = 0
    /// Breaches no longer listed that the catalog no longer has (HIBP removed them): counted, not named.
    public var removed = 0

    init(shown: [Breach], sensitive: Int, unnamed: Int, newNames: Set<String> = [], acknowledgedNames: Set<String> = [],
         newSensitive: Int = 0, newUnnamed: Int = 0) {
        self.shown = shown; self.sensitive = sensitive; self.unnamed = unnamed; self.newNames = newNames
        self.acknowledgedNames = acknowledgedNames; self.newSensitive = newSensitive; self.newUnnamed = newUnnamed
    }

    /// Every breach, listed by the latest answer or no longer.
    public var total: Int { shown.count + sensitive + unnamed + removed }
    /// How many HIBP no longer lists (named, counted, removed).
    public var unlistedCount: Int { unlistedSince.count + unlistedSensitive + unlistedUnnamed + removed }
    /// How many are new, named or counted.
    public var newCount: Int { newNames.count + newSensitive + newUnnamed }

    /// Whether `breach` (one of `shown`) is new.
    public func isNew(_ breach: Breach) -> Bool { newNames.contains(breach.name) }
    /// Whether `breach` (one of `shown`) was acknowledged.
    public func isAcknowledged(_ breach: Breach) -> Bool { acknowledgedNames.contains(breach.name) }
    /// When HIBP stopped listing `breach` (one of `shown`); nil while listed.
    public func unlistedSince(_ breach: Breach) -> Date? { unlistedSince[breach.name] }
    /// Whether `breach` (one of `shown`) is no longer listed because HIBP retired it.
    public func isRetired(_ breach: Breach) -> Bool { retiredNames.contains(breach.name) }

    /// The one-line notes for what is counted but not named, for a stored view (`show`):
    /// "1 sensitive breach, named only in 'pwnvault reveal'".
    public var countedNotes: [String] { countedNotes(newMark: nil, inVault: true) }

    /// The notes for what is counted but not named. `newMark` (a run's report, `check`): how many of
    /// them this answer found first, after that mark. `inVault`: the account is stored, so `reveal`
    /// names its sensitive breaches; a one-off answer is remembered nowhere, so nothing can name them.
    /// A sensitive breach is said as such, never folded into a count of names left out.
    public func countedNotes(newMark: String?, inVault: Bool) -> [String] {
        var notes: [String] = []
        if sensitive > 0 {
            let fresh = newMark != nil ? newSensitive : 0
            if !inVault {
                notes.append(fresh > 0
                    ? msg(one: "{1} sensitive breach ({2} {3}), not named", many: "{1} sensitive breaches ({2} {3}), not named",
                          count: sensitive, sensitive, fresh, newMark ?? "")
                    : msg(one: "{1} sensitive breach, not named", many: "{1} sensitive breaches, not named", count: sensitive, sensitive))
            } else if let newMark {
                // A run's one line: short, and whole however many names are folded.
                notes.append(fresh > 0
                    ? msg(one: "{1} sensitive breach ({2} {3}; 'reveal' names it)", many: "{1} sensitive breaches ({2} {3}; 'reveal' names them)",
                          count: sensitive, sensitive, fresh, newMark)
                    : msg(one: "{1} sensitive breach ('reveal' names it)", many: "{1} sensitive breaches ('reveal' names them)",
                          count: sensitive, sensitive))
            } else {
                notes.append(msg(one: "{1} sensitive breach, named only in 'pwnvault reveal'",
                                 many: "{1} sensitive breaches, named only in 'pwnvault reveal'", count: sensitive, sensitive))
            }
        }
        if unnamed > 0 {
            notes.append(msg(one: "{1} breach not named (no catalog entry to tell whether it is sensitive)",
                             many: "{1} breaches not named (no catalog entry to tell whether they are sensitive)", count: unnamed, unnamed))
        }
        if unlistedSensitive + unlistedUnnamed > 0 {
            let n = unlistedSensitive + unlistedUnnamed
            notes.append(msg(one: "{1} of the breaches not named is no longer listed by HIBP", many: "{1} of the breaches not named are no longer listed by HIBP",
                             count: n, n))
        }
        if removed > 0 {
            notes.append(msg(one: "{1} breach retired by HIBP (no longer in its catalog, not named)",
                             many: "{1} breaches retired by HIBP (no longer in its catalog, not named)", count: removed, removed))
        }
        return notes
    }
}

/// What the gate decided prints as counts; the names go out only through the output that shows them.
extension DisclosedBreaches: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DisclosedBreaches(\(shown.count) shown, \(sensitive) sensitive, \(unnamed) unnamed)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["shownCount": shown.count, "sensitive": sensitive, "unnamed": unnamed, "newCount": newCount])
    }
}
