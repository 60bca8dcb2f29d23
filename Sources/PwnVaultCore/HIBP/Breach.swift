import FoundationEssentials

/// One breach as HIBP describes it (`/breaches`, `/breach/{name}`, `/breachedaccount/{account}`).
///
/// Decoding is lenient where HIBP's data varies and strict where a wrong shape means a wrong answer:
/// unknown fields are ignored, missing flags read as false, missing optional texts as nil, dates
/// that cannot be read as nil; but a body without a `Name` string, or with a field of the wrong
/// JSON type, throws. A truncated answer (`[{"Name":"Adobe"}]`) decodes to a breach with only a name
/// (its `title` is the name); `BreachCatalog.resolve` fills in the rest.
///
/// Encoding writes HIBP's own shape (PascalCase keys, `YYYY-MM-DD`, ISO 8601), so a cached catalog
/// reads back through the same decoder.
public struct Breach: Codable, Hashable, Sendable {
    /// Stable PascalCase id (`Adobe`): the key to join on; not meant for display.
    public var name: String
    /// The display name.
    public var title: String
    /// The breached site's domain; may be empty.
    public var domain: String
    /// The approximate day of the breach.
    public var breachDate: BreachDay?
    /// When HIBP added the breach.
    public var addedDate: Date?
    /// When HIBP last changed the breach.
    public var modifiedDate: Date?
    /// Number of accounts in the breach.
    public var pwnCount: Int64
    /// HIBP's description: **HTML**, never to be printed as is. See `HTMLText.render`.
    public var descriptionHTML: String
    /// URL of the breached site's logo.
    public var logoPath: String?
    /// The kinds of data exposed (`Email addresses`, `Passwords`, …).
    public var dataClasses: [String]
    public var isVerified: Bool
    public var isFabricated: Bool
    public var isSensitive: Bool
    public var isRetired: Bool
    public var isSpamList: Bool
    public var isMalware: Bool
    public var isSubscriptionFree: Bool
    public var isStealerLog: Bool
    /// Who reported or analysed the breach, when HIBP says.
    public var attribution: String?
    /// A public write-up of the breach, when HIBP links one.
    public var disclosureURL: String?

    /// A breach built from its parts; everything but the name has a neutral default.
    public init(name: String, title: String? = nil, domain: String = "", breachDate: BreachDay? = nil,
                addedDate: Date? = nil, modifiedDate: Date? = nil, pwnCount: Int64 = 0,
                descriptionHTML: String = "", logoPath: String? = nil, dataClasses: [String] = [],
                isVerified: Bool = false, isFabricated: Bool = false, isSensitive: Bool = false,
                isRetired: Bool = false, isSpamList: Bool = false, isMalware: Bool = false,
                isSubscriptionFree: Bool = false, isStealerLog: Bool = false,
                attribution: String? = nil, disclosureURL: String? = nil) {
        self.name = name; self.title = title ?? name; self.domain = domain; self.breachDate = breachDate
        self.addedDate = addedDate; self.modifiedDate = modifiedDate; self.pwnCount = pwnCount
        self.descriptionHTML = descriptionHTML; self.logoPath = logoPath; self.dataClasses = dataClasses
        self.isVerified = isVerified; self.isFabricated = isFabricated; self.isSensitive = isSensitive
        self.isRetired = isRetired; self.isSpamList = isSpamList; self.isMalware = isMalware
        self.isSubscriptionFree = isSubscriptionFree; self.isStealerLog = isStealerLog
        self.attribution = attribution; self.disclosureURL = disclosureURL
    }

    /// What stands in for a breach the catalog does not know (yet): its name, nothing else.
    public static func placeholder(named name: String) -> Breach { Breach(name: name) }

    /// True when only the name is known (a truncated answer or a placeholder).
    public var hasDetails: Bool { addedDate != nil || breachDate != nil || pwnCount > 0 || !descriptionHTML.isEmpty }

    enum CodingKeys: String, CodingKey {
        case name = "Name", title = "Title", domain = "Domain", breachDate = "BreachDate"
        case addedDate = "AddedDate", modifiedDate = "ModifiedDate", pwnCount = "PwnCount"
        case descriptionHTML = "Description", logoPath = "LogoPath", dataClasses = "DataClasses"
        case isVerified = "IsVerified", isFabricated = "IsFabricated", isSensitive = "IsSensitive"
        case isRetired = "IsRetired", isSpamList = "IsSpamList", isMalware = "IsMalware"
        case isSubscriptionFree = "IsSubscriptionFree", isStealerLog = "IsStealerLog"
        case attribution = "Attribution", disclosureURL = "DisclosureUrl"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .name)
        guard !name.trimmingWhitespaceAndNewlines().isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: c, debugDescription: "empty breach name")
        }
        func flag(_ key: CodingKeys) throws -> Bool { try c.decodeIfPresent(Bool.self, forKey: key) ?? false }
        func text(_ key: CodingKeys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        self.init(
            name: name,
            title: try text(.title).flatMap { $0.isEmpty ? nil : $0 },
            domain: try text(.domain) ?? "",
            breachDate: try text(.breachDate).flatMap(BreachDay.init(parsing:)),
            addedDate: try text(.addedDate).flatMap(HIBPTimestamp.parse),
            modifiedDate: try text(.modifiedDate).flatMap(HIBPTimestamp.parse),
            pwnCount: max(0, try c.decodeIfPresent(Int64.self, forKey: .pwnCount) ?? 0),
            descriptionHTML: try text(.descriptionHTML) ?? "",
            logoPath: try text(.logoPath),
            dataClasses: try c.decodeIfPresent([String].self, forKey: .dataClasses) ?? [],
            isVerified: try flag(.isVerified), isFabricated: try flag(.isFabricated),
            isSensitive: try flag(.isSensitive), isRetired: try flag(.isRetired),
            isSpamList: try flag(.isSpamList), isMalware: try flag(.isMalware),
            isSubscriptionFree: try flag(.isSubscriptionFree), isStealerLog: try flag(.isStealerLog),
            attribution: try text(.attribution), disclosureURL: try text(.disclosureURL))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(title, forKey: .title)
        try c.encode(domain, forKey: .domain)
        try c.encodeIfPresent(breachDate, forKey: .breachDate)
        try c.encodeIfPresent(addedDate.map(HIBPTimestamp.format), forKey: .addedDate)
        try c.encodeIfPresent(modifiedDate.map(HIBPTimestamp.format), forKey: .modifiedDate)
        try c.encode(pwnCount, forKey: .pwnCount)
        try c.encode(descriptionHTML, forKey: .descriptionHTML)
        try c.encodeIfPresent(logoPath, forKey: .logoPath)
        try c.encode(dataClasses, forKey: .dataClasses)
        try c.encode(isVerified, forKey: .isVerified)
        try c.encode(isFabricated, forKey: .isFabricated)
        try c.encode(isSensitive, forKey: .isSensitive)
        try c.encode(isRetired, forKey: .isRetired)
        try c.encode(isSpamList, forKey: .isSpamList)
        try c.encode(isMalware, forKey: .isMalware)
        try c.encode(isSubscriptionFree, forKey: .isSubscriptionFree)
        try c.encode(isStealerLog, forKey: .isStealerLog)
        try c.encodeIfPresent(attribution, forKey: .attribution)
        try c.encodeIfPresent(disclosureURL, forKey: .disclosureURL)
    }
}
