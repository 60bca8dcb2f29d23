import FoundationEssentials

/// What changed in HIBP's breach catalog since `watch` last acted on it, and which accounts those
/// changes can concern, so a change that cannot concern an account does not cost a request for it.
///
/// `watch` remembers, per breach, only what decides whom it can concern (`Entry`: name, PwnCount,
/// the kinds of account its data classes can hold, whether it is sensitive, retired or a spam list),
/// in the vault's `monitor.catalogMark` (`mark(of:)`, `remembered(mark:)`). The fresh catalog is
/// compared with that, breach by breach and by name (never by dates: HIBP can add a breach with an
/// old AddedDate). A breach can newly concern an account when:
///
/// - it is **new** (a name not remembered), or its **PwnCount grew** (more accounts were loaded into
///   it), and an account of that kind can now be found in it;
/// - or it was **hidden and is no longer** (a sensitive breach made public, a retired one restored, a
///   spam list no longer marked so), or its **data classes widened** to a kind it could not hold
///   before ("Phone numbers" added: phones can now be found in it).
///
/// It cannot concern an account, so no request is made for it, when the breach is **retired** (HIBP
/// returns it to nobody), **sensitive** (HIBP returns it only through a domain search, so it concerns
/// only addresses on the key's verified domains: `domainSearchKinds`), a **spam list** (addresses a
/// spammer collected, nothing was breached: left to the next full check), when it was **modified without a
/// larger PwnCount** (a description, a title, IsVerified or IsFabricated changed: the accounts HIBP returns
/// for it are the same), when it was **removed**, or when its **data classes cannot hold the account's
/// kind**: an e-mail address needs "Email addresses", a username "Usernames", a phone number "Phone
/// numbers". A breach without any data class (a truncated entry) can hold every kind.
///
/// What the catalog cannot show (pastes, stealer logs, a breach reloaded without a larger PwnCount, a
/// spam list) is left to `watch --full-every`. Nothing here is an account: only public catalog data.
public struct BreachCatalogDiff: Sendable, Equatable {
    /// One breach, as far as whom it can concern.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var pwnCount: Int64
        /// The kinds of account its data classes can hold.
        public var kinds: Set<AccountKind>
        public var isSensitive: Bool
        public var isRetired: Bool
        public var isSpamList: Bool

        public init(name: String, pwnCount: Int64, kinds: Set<AccountKind>, isSensitive: Bool = false,
                    isRetired: Bool = false, isSpamList: Bool = false) {
            self.name = name; self.pwnCount = pwnCount; self.kinds = kinds
            self.isSensitive = isSensitive; self.isRetired = isRetired; self.isSpamList = isSpamList
        }

        public init(_ breach: Breach) {
            self.init(name: breach.name, pwnCount: breach.pwnCount, kinds: BreachCatalogDiff.kinds(breach.dataClasses),
                      isSensitive: breach.isSensitive, isRetired: breach.isRetired, isSpamList: breach.isSpamList)
        }

        /// The kinds a per-address search (`breachedaccount`) can find in it and `watch` acts on.
        var kindsByAddress: Set<AccountKind> { isRetired || isSpamList || isSensitive ? [] : kinds }
        /// The kinds a domain search (`breacheddomain`, e-mail addresses only) can find in it.
        var kindsByDomainSearch: Set<AccountKind> { isRetired || isSpamList ? [] : kinds.intersection([.email]) }
    }

    /// Why a breach can newly concern accounts.
    public enum Reason: String, Sendable, Equatable {
        /// A name not in the remembered catalog.
        case added
        /// More accounts were loaded into it.
        case grew
        /// It can now be found for kinds it could not be before (data classes widened, or it is no longer
        /// sensitive, retired or a spam list).
        case widened
    }

    /// One breach that can newly concern accounts.
    public struct Change: Sendable, Equatable {
        public let name: String
        public let reason: Reason
        /// Accounts of these kinds can now be found in it by a per-address search.
        public let kinds: Set<AccountKind>
        /// Accounts of these kinds can now be found in it by a domain search only (a sensitive breach).
        public let domainSearchKinds: Set<AccountKind>
    }

    /// The breaches that can newly concern accounts, in the fresh catalog's order.
    public let changes: [Change]

    /// Compares `fresh` with what was `remembered` of the catalog.
    public init(from remembered: [Entry], to fresh: BreachCatalog) {
        var old: [String: Entry] = [:]
        for e in remembered where old[e.name.lowercased()] == nil { old[e.name.lowercased()] = e }
        var seen: Set<String> = []
        var changes: [Change] = []
        for breach in fresh.breaches where seen.insert(breach.name.lowercased()).inserted {
            let new = Entry(breach)
            let before = old[breach.name.lowercased()]
            let reason: Reason
            let byAddress, byDomain: Set<AccountKind>
            if let before, new.pwnCount <= before.pwnCount {
                reason = .widened
                byAddress = new.kindsByAddress.subtracting(before.kindsByAddress)
                byDomain = new.kindsByDomainSearch.subtracting(before.kindsByDomainSearch)
            } else {
                reason = before == nil ? .added : .grew
                byAddress = new.kindsByAddress
                byDomain = new.kindsByDomainSearch
            }
            let domainOnly = byDomain.subtracting(byAddress)
            if !byAddress.isEmpty || !domainOnly.isEmpty {
                changes.append(Change(name: breach.name, reason: reason, kinds: byAddress, domainSearchKinds: domainOnly))
            }
        }
        self.changes = changes
    }

    /// Whether a change can concern accounts of `kind` found by a per-address search.
    public func concernsByAddress(_ kind: AccountKind) -> Bool { changes.contains { $0.kinds.contains(kind) } }

    /// Whether a change can concern accounts of `kind` only through a domain search (a sensitive breach).
    public func concernsByDomainSearchOnly(_ kind: AccountKind) -> Bool {
        !concernsByAddress(kind) && changes.contains { $0.domainSearchKinds.contains(kind) }
    }

    /// The kinds of account data classes can hold; every kind when there is none (nothing is known).
    public static func kinds(_ dataClasses: [String]) -> Set<AccountKind> {
        guard !dataClasses.isEmpty else { return Set(AccountKind.allCases) }
        var kinds: Set<AccountKind> = []
        for c in dataClasses {
            switch c.trimmingWhitespace().lowercased() {
            case "email addresses": kinds.insert(.email)
            case "usernames": kinds.insert(.username)
            case "phone numbers": kinds.insert(.phone)
            default: break
            }
        }
        return kinds
    }

    // MARK: what the vault remembers

    /// The prefix of a mark `remembered(mark:)` reads; an earlier mark (`834@2026-…`) has none.
    static let markPrefix = "2;"

    /// What `watch` remembers of `catalog` (`monitor.catalogMark`): `2;` then, per breach, its name
    /// (`%`, `,` and `;` percent-escaped), its PwnCount and letters for what decides whom it can concern
    /// (`e` e-mail addresses, `u` usernames, `p` phone numbers, `s` sensitive, `r` retired, `l` spam list),
    /// separated by `,`, breaches separated by `;`: `2;Adobe,152445165,eu;Ashley,30811934,es`.
    public static func mark(of catalog: BreachCatalog) -> String {
        var out = markPrefix
        for (i, b) in catalog.breaches.enumerated() {
            let e = Entry(b)
            if i > 0 { out += ";" }
            out += escape(e.name) + "," + String(e.pwnCount) + ","
            if e.kinds.contains(.email) { out += "e" }
            if e.kinds.contains(.username) { out += "u" }
            if e.kinds.contains(.phone) { out += "p" }
            if e.isSensitive { out += "s" }
            if e.isRetired { out += "r" }
            if e.isSpamList { out += "l" }
        }
        return out
    }

    /// The catalog a mark remembers; nil when there is no mark, an earlier kind of mark, or a damaged one
    /// (then `watch` checks every account, as it cannot tell what changed).
    public static func remembered(mark: String?) -> [Entry]? {
        guard let mark, mark.hasPrefix(markPrefix) else { return nil }
        let body = mark.dropFirst(markPrefix.count)
        if body.isEmpty { return [] }
        var entries: [Entry] = []
        for item in body.split(separator: ";", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 3, let name = unescape(parts[0]), !name.isEmpty,
                  let count = Int64(parts[1]), count >= 0 else { return nil }
            var e = Entry(name: name, pwnCount: count, kinds: [])
            for letter in parts[2] {
                switch letter {
                case "e": e.kinds.insert(.email)
                case "u": e.kinds.insert(.username)
                case "p": e.kinds.insert(.phone)
                case "s": e.isSensitive = true
                case "r": e.isRetired = true
                case "l": e.isSpamList = true
                default: return nil
                }
            }
            entries.append(e)
        }
        return entries
    }

    private static func escape(_ name: String) -> String {
        var out = ""
        for ch in name {
            switch ch {
            case "%": out += "%25"
            case ",": out += "%2C"
            case ";": out += "%3B"
            default: out.append(ch)
            }
        }
        return out
    }

    private static func unescape(_ text: Substring) -> String? {
        var out = ""
        var rest = text[...]
        while let i = rest.firstIndex(of: "%") {
            out += rest[..<i]
            let code = rest[rest.index(after: i)...].prefix(2)
            switch code {
            case "25": out += "%"
            case "2C": out += ","
            case "3B": out += ";"
            default: return nil
            }
            rest = rest[rest.index(i, offsetBy: 3)...]
        }
        return out + rest
    }
}
