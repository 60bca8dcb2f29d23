import FoundationEssentials

/// HIBP's public list of breaches (`/breaches`), with when it was fetched. Public data only: it
/// never records which account is in which breach.
public struct BreachCatalog: Sendable, Equatable {
    public let breaches: [Breach]
    /// When it was fetched from HIBP.
    public let fetchedAt: Date
    private let byName: [String: Int]

    public init(breaches: [Breach], fetchedAt: Date) {
        self.breaches = breaches
        self.fetchedAt = fetchedAt
        var index: [String: Int] = [:]
        for (i, b) in breaches.enumerated() where index[b.name.lowercased()] == nil { index[b.name.lowercased()] = i }
        byName = index
    }

    /// The breach with this `Name`, ignoring case.
    public func breach(named name: String) -> Breach? {
        byName[name.lowercased()].map { breaches[$0] }
    }

    /// Whether every breach of `result` has an entry here. An answer can name a breach added to HIBP
    /// after this copy was fetched (the newest news is exactly that): then the catalog is fetched
    /// again once. Says nothing about which breaches those are.
    public func knowsEveryBreach(of result: CheckResult) -> Bool {
        result.breaches.allSatisfy { byName[$0.lowercased()] != nil }
    }

    /// The breach with this `Name`, else the one with this `Title` (what `show` and `check` print),
    /// ignoring case and surrounding spaces.
    public func breach(namedOrTitled text: String) -> Breach? {
        let key = text.trimmingWhitespace()
        return breach(named: key) ?? breaches.first { $0.title.equalsIgnoringCase(key) }
    }

    /// Full entries for the names of a lookup, in the same order; a name the catalog does not know
    /// (a breach added since it was fetched) becomes `Breach.placeholder(named:)`, not a failure.
    public func resolve(_ names: [String]) -> [Breach] {
        names.map { breach(named: $0) ?? .placeholder(named: $0) }
    }

    /// A lookup's breaches joined with the catalog: truncated entries (`[{"Name":…}]`) are replaced
    /// by full ones; entries that already have details are kept as they are. Internal: a lookup's
    /// breaches include sensitive ones, disclosed only through `Disclosure`.
    func resolve(_ lookup: AccountLookup) -> [Breach] {
        lookup.breaches.map { $0.hasDetails ? $0 : (breach(named: $0.name) ?? $0) }
    }

    /// The breaches that match `query`, in its order.
    public func search(_ query: BreachQuery) -> [Breach] { query.apply(to: breaches) }

    /// True when fetched more than `maxAge` before `now`, or in the future (a clock that moved back).
    public func isStale(now: Date, maxAge: TimeInterval) -> Bool {
        let age = now.timeIntervalSince(fetchedAt)
        return age > maxAge || age < -300
    }

    /// What `watch` remembers of this catalog between runs (`monitor.catalogMark`), per breach what
    /// decides whom it can concern: see `BreachCatalogDiff.mark(of:)`. A breach added, removed, grown,
    /// or changed in its data classes or its sensitive, retired and spam-list flags changes it.
    public var mark: String { BreachCatalogDiff.mark(of: self) }

    /// The breaches added or modified after `date`, newest first (for `watch`'s report).
    public func changed(since date: Date) -> [Breach] {
        breaches.filter { ($0.addedDate ?? .distantPast) > date || ($0.modifiedDate ?? .distantPast) > date }
    }

    public static func == (a: BreachCatalog, b: BreachCatalog) -> Bool {
        a.fetchedAt == b.fetchedAt && a.breaches == b.breaches
    }
}
