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

    /// What tells one state of the catalog from another, for `watch`: how many breaches it lists and
    /// the latest time any of them was added or modified (`834@2026-11-29T10:00:00.000Z`). A breach
    /// added, modified or removed changes it.
    public var mark: String {
        let latest = breaches.compactMap { b -> Date? in
            switch (b.addedDate, b.modifiedDate) {
            case let (a?, m?): return max(a, m)
            case let (a, m): return a ?? m
            }
        }.max()
        return "\(breaches.count)@" + (latest.map(HIBPTimestamp.format) ?? "-")
    }

    /// The breaches added or modified after `date`, newest first (for `watch`'s report).
    public func changed(since date: Date) -> [Breach] {
        breaches.filter { ($0.addedDate ?? .distantPast) > date || ($0.modifiedDate ?? .distantPast) > date }
    }

    public static func == (a: BreachCatalog, b: BreachCatalog) -> Bool {
        a.fetchedAt == b.fetchedAt && a.breaches == b.breaches
    }
}
