import FoundationEssentials

/// A domain the API key has verified and may search (`subscribeddomains`).
public struct SubscribedDomain: Codable, Hashable, Sendable {
    public var domainName: String
    /// Breached addresses on the domain, spam lists included.
    public var pwnCount: Int64?
    public var pwnCountExcludingSpamLists: Int64?
    public var nextSubscriptionRenewal: Date?

    public init(domainName: String, pwnCount: Int64? = nil, pwnCountExcludingSpamLists: Int64? = nil,
                nextSubscriptionRenewal: Date? = nil) {
        self.domainName = domainName; self.pwnCount = pwnCount
        self.pwnCountExcludingSpamLists = pwnCountExcludingSpamLists; self.nextSubscriptionRenewal = nextSubscriptionRenewal
    }

    enum CodingKeys: String, CodingKey {
        case domainName = "DomainName", pwnCount = "PwnCount", pwnCountExcludingSpamLists = "PwnCountExcludingSpamLists"
        case nextSubscriptionRenewal = "NextSubscriptionRenewal"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        domainName = try c.decode(String.self, forKey: .domainName)
        pwnCount = try? c.decodeIfPresent(Int64.self, forKey: .pwnCount)
        pwnCountExcludingSpamLists = try? c.decodeIfPresent(Int64.self, forKey: .pwnCountExcludingSpamLists)
        nextSubscriptionRenewal = (try? c.decodeIfPresent(String.self, forKey: .nextSubscriptionRenewal)).flatMap { $0.flatMap(HIBPTimestamp.parse) }
    }
}
