import FoundationEssentials

/// One paste an account appeared in (`/pasteaccount/{account}`).
public struct Paste: Codable, Hashable, Sendable {
    /// Where it was found: `Pastebin`, `Pastie`, `Slexy`, `Ghostbin`, `QuickLeak`, `JustPaste`,
    /// `AdHocUrl`, `PermanentOptOut`, `OptOut`; kept as text so a new source does not break decoding.
    public var source: String
    /// The paste's id at the source (a URL for `AdHocUrl`).
    public var id: String
    public var title: String?
    public var date: Date?
    /// How many e-mail addresses the paste held.
    public var emailCount: Int

    public init(source: String, id: String, title: String? = nil, date: Date? = nil, emailCount: Int = 0) {
        self.source = source; self.id = id; self.title = title; self.date = date; self.emailCount = emailCount
    }

    enum CodingKeys: String, CodingKey {
        case source = "Source", id = "Id", title = "Title", date = "Date", emailCount = "EmailCount"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(source: try c.decode(String.self, forKey: .source),
                  id: try c.decode(String.self, forKey: .id),
                  title: try c.decodeIfPresent(String.self, forKey: .title),
                  date: try c.decodeIfPresent(String.self, forKey: .date).flatMap(HIBPTimestamp.parse),
                  emailCount: max(0, try c.decodeIfPresent(Int.self, forKey: .emailCount) ?? 0))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(date.map(HIBPTimestamp.format), forKey: .date)
        try c.encode(emailCount, forKey: .emailCount)
    }
}
