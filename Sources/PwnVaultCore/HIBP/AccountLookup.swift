/// The answer to "is this account in a breach?" (`/breachedaccount/{account}`).
///
/// Which breaches an account is in (sensitive ones included) is vault data: the list is internal, it
/// leaves the library only through `BreachCatalog.resolve` (which the disclosure gate's callers use)
/// or as a result recorded in the vault, and a lookup prints as a count.
public struct AccountLookup: Hashable, Sendable {
    /// The breaches found; empty when clean. From a truncated lookup these carry only their `name`;
    /// `BreachCatalog.resolve` joins them with the full catalog entries.
    let breaches: [Breach]

    init(breaches: [Breach]) { self.breaches = breaches }

    /// HIBP answered 404 (or an empty list): the account is in no breach HIBP shows publicly.
    public static let clean = AccountLookup(breaches: [])

    /// The breaches the account is in.
    static func breached(_ list: [Breach]) -> AccountLookup { AccountLookup(breaches: list) }

    /// Whether the account is in no breach.
    public var isClean: Bool { breaches.isEmpty }

    /// How many breaches the account is in.
    public var breachCount: Int { breaches.count }

    /// The breach `Name`s found, in HIBP's order (internal: sensitive ones included).
    var breachNames: [String] { breaches.map(\.name) }
}

extension AccountLookup: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { isClean ? "AccountLookup(clean)" : "AccountLookup(\(breaches.count) breaches, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["breachCount": breaches.count]) }
}
