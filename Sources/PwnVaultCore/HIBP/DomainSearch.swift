import FoundationEssentials

/// One domain search (`breacheddomain/{domain}`): every breached alias of a domain the key verified,
/// in one request. It answers for every e-mail account on that domain at once: an account whose
/// alias is listed is in those breaches, one that is not listed is in none HIBP knows.
///
/// The aliases are accounts: they stay internal, and leave only as `ParsedAccount`s (through the
/// disclosure gate) or as results recorded in the vault.
public struct DomainSearch: Sendable {
    /// The domain searched, lower-cased.
    public let domain: String
    /// Local part (lower-cased) → breach names.
    let aliases: [String: [String]]

    public init(domain: String, aliases: [String: [String]]) {
        self.domain = domain.lowercased()
        var folded: [String: [String]] = [:]
        for (alias, names) in aliases { folded[alias.lowercased(), default: []] += names }
        self.aliases = folded
    }

    /// How many aliases are breached.
    public var count: Int { aliases.count }

    /// Whether `account` is an e-mail address on `domain` (a domain search answers for it).
    public static func covers(_ domain: String, _ account: Account) -> Bool {
        account.kind == .email && account.normalized.lowercased().hasSuffix("@" + domain.lowercased())
    }

    /// The answer for a vault account on the domain (nil when it is not on it): its breaches, or none.
    public func check(for account: Account, at date: Date) -> AccountCheck? {
        guard Self.covers(domain, account) else { return nil }
        let local = String(account.normalized.lowercased().dropLast(domain.count + 1))
        return .domainAnswer(breaches: aliases[local] ?? [], at: date)
    }

    /// Every breached alias as an account (sorted), with its breach names in a result the gate can
    /// disclose; aliases that are not valid accounts are left out (`unusableAliases` says why).
    public func accounts(at date: Date) -> [(account: ParsedAccount, result: CheckResult)] {
        aliases.keys.sorted().compactMap { alias in
            guard case let .success(parsed) = Self.read(alias, on: domain) else { return nil }
            return (parsed, .answer(breaches: aliases[alias] ?? [], pasteCount: nil, at: date))
        }
    }

    /// The breached aliases `accounts` leaves out, by why: each reason (one of `AccountParseError`'s
    /// fixed sentences, never the alias) with how many aliases it stopped, the most frequent first.
    /// In the reader's language: for `--json`, call it inside `Messages.english`.
    public func unusableAliases() -> [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for alias in aliases.keys {
            if case let .failure(why) = Self.read(alias, on: domain) { counts[why.reason, default: 0] += 1 }
        }
        return counts.map { (reason: $0.key, count: $0.value) }.sorted { ($0.count, $1.reason) > ($1.count, $0.reason) }
    }

    /// Why an alias is not an account: a fixed sentence that never quotes it.
    struct Unusable: Error { let reason: String }

    /// `alias@domain` as an e-mail account, or why it is none.
    private static func read(_ alias: String, on domain: String) -> Result<ParsedAccount, Unusable> {
        do {
            let parsed = try AccountParser.parse(alias + "@" + domain, phones: .internationalOnly)
            return parsed.kind == .email ? .success(parsed) : .failure(Unusable(reason: msg("it is not read as an e-mail address")))
        } catch let error as AccountParseError {
            return .failure(Unusable(reason: error.message))
        } catch {
            return .failure(Unusable(reason: msg("it is not read as an e-mail address")))
        }
    }
}

extension DomainSearch: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DomainSearch(\(aliases.count) aliases, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": aliases.count]) }
}
