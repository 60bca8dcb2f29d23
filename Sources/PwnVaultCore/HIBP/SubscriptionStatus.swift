import FoundationEssentials

/// The API key's subscription (`/subscription/status`), above all its own rate limit.
public struct SubscriptionStatus: Codable, Hashable, Sendable {
    public var subscriptionName: String
    public var description: String
    public var subscribedUntil: Date?
    /// Requests per minute this key may make; nil when HIBP did not say (then assume the smallest plan).
    public var rpm: Int?
    public var domainSearchMaxBreachedAccounts: Int?
    public var includesStealerLogs: Bool
    /// Whether the plan includes the k-anonymity search (`breachedaccount/range`): HIBP's
    /// `IncludesKAnon`. Nil when the answer does not say (absent means "unknown", not "no"). The
    /// name is the one HIBP's published schema of this answer gives (api-evangelist/haveibeenpwned,
    /// json-schema/hibp-subscription-status-schema.json, and its example payload); HIBP's own API page
    /// was not readable here to confirm it.
    public var includesKAnonymity: Bool?

    public init(subscriptionName: String, description: String = "", subscribedUntil: Date? = nil, rpm: Int?,
                domainSearchMaxBreachedAccounts: Int? = nil, includesStealerLogs: Bool = false,
                includesKAnonymity: Bool? = nil) {
        self.subscriptionName = subscriptionName; self.description = description
        self.subscribedUntil = subscribedUntil; self.rpm = rpm
        self.domainSearchMaxBreachedAccounts = domainSearchMaxBreachedAccounts
        self.includesStealerLogs = includesStealerLogs
        self.includesKAnonymity = includesKAnonymity
    }

    enum CodingKeys: String, CodingKey {
        case subscriptionName = "SubscriptionName", description = "Description"
        case subscribedUntil = "SubscribedUntil", rpm = "Rpm"
        case domainSearchMaxBreachedAccounts = "DomainSearchMaxBreachedAccounts"
        case includesStealerLogs = "IncludesStealerLogs"
        case includesKAnonymity = "IncludesKAnon"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let rpm = try c.decodeIfPresent(Int.self, forKey: .rpm)
        self.init(subscriptionName: try c.decodeIfPresent(String.self, forKey: .subscriptionName) ?? "",
                  description: try c.decodeIfPresent(String.self, forKey: .description) ?? "",
                  subscribedUntil: try c.decodeIfPresent(String.self, forKey: .subscribedUntil).flatMap(HIBPTimestamp.parse),
                  rpm: rpm.flatMap { $0 > 0 ? $0 : nil },
                  domainSearchMaxBreachedAccounts: try c.decodeIfPresent(Int.self, forKey: .domainSearchMaxBreachedAccounts),
                  includesStealerLogs: try c.decodeIfPresent(Bool.self, forKey: .includesStealerLogs) ?? false,
                  includesKAnonymity: try c.decodeIfPresent(Bool.self, forKey: .includesKAnonymity))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subscriptionName, forKey: .subscriptionName)
        try c.encode(description, forKey: .description)
        try c.encodeIfPresent(subscribedUntil.map(HIBPTimestamp.format), forKey: .subscribedUntil)
        try c.encodeIfPresent(rpm, forKey: .rpm)
        try c.encodeIfPresent(domainSearchMaxBreachedAccounts, forKey: .domainSearchMaxBreachedAccounts)
        try c.encode(includesStealerLogs, forKey: .includesStealerLogs)
        try c.encodeIfPresent(includesKAnonymity, forKey: .includesKAnonymity)
    }
}
