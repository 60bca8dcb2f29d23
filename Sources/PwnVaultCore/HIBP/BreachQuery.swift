import FoundationEssentials

/// A filter and order over the catalog: `breaches --search TEXT --domain D --sort date|size|name`.
public struct BreachQuery: Sendable, Equatable {
    /// Matches name, title or domain, ignoring case and accents; nil or blank matches everything.
    public var search: String?
    /// Only breaches of this domain (case-insensitive, a leading `www.` ignored on both sides).
    public var domain: String?
    public var sort: BreachSort

    public init(search: String? = nil, domain: String? = nil, sort: BreachSort = .date) {
        self.search = search; self.domain = domain; self.sort = sort
    }

    /// True when `breach` passes the filters.
    public func matches(_ breach: Breach) -> Bool {
        if let domain = domain.map(Self.bareDomain), !domain.isEmpty, Self.bareDomain(breach.domain) != domain {
            return false
        }
        if let text = search?.trimmingWhitespaceAndNewlines(), !text.isEmpty {
            return [breach.name, breach.title, breach.domain].contains { $0.rangeIgnoringCase(of: text, ignoringDiacritics: true) != nil }
        }
        return true
    }

    /// The matching breaches of `breaches`, in this query's order (ties broken by name, so the
    /// order is always the same).
    public func apply(to breaches: [Breach]) -> [Breach] {
        breaches.filter(matches).sorted { a, b in
            switch sort {
            case .date:
                if a.breachDate != b.breachDate {
                    guard let x = a.breachDate else { return false }
                    guard let y = b.breachDate else { return true }
                    return x > y
                }
            case .size:
                if a.pwnCount != b.pwnCount { return a.pwnCount > b.pwnCount }
            case .name:
                let x = a.title.comparisonKey(ignoringDiacritics: true), y = b.title.comparisonKey(ignoringDiacritics: true)
                if x != y { return x < y }
            }
            return a.name.lowercased() < b.name.lowercased()
        }
    }

    static func bareDomain(_ domain: String) -> String {
        let d = domain.trimmingWhitespaceAndNewlines().lowercased()
        return d.hasPrefix("www.") ? String(d.dropFirst(4)) : d
    }
}
