/// The answer to "is this account in a breach?" (`/breachedaccount/{account}`).
public enum AccountLookup: Hashable, Sendable {
    /// HIBP answered 404 (or an empty list): the account is in no breach HIBP shows publicly.
    case clean
    /// The breaches the account is in. From a truncated lookup these carry only their `name`;
    /// `BreachCatalog.resolve` joins them with the full catalog entries.
    case breached([Breach])

    /// The breaches found; empty when clean.
    public var breaches: [Breach] {
        if case let .breached(list) = self { return list }
        return []
    }

    /// The breach `Name`s found, in HIBP's order.
    public var breachNames: [String] { breaches.map(\.name) }
}
