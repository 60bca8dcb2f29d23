import FoundationEssentials

/// One paste an account appeared in (`/pasteaccount/{account}`).
///
/// Which pastes an account is in is vault data: only `Decodable` (from HIBP's answer), its members
/// internal, and it prints without its source, id or title.
public struct Paste: Decodable, Hashable, Sendable {
    /// Where it was found: `Pastebin`, `Pastie`, `Slexy`, `Ghostbin`, `QuickLeak`, `JustPaste`,
    /// `AdHocUrl`, `PermanentOptOut`, `OptOut`; kept as text so a new source does not break decoding.
    var source: String
    /// The paste's id at the source (a URL for `AdHocUrl`).
    var id: String
    var title: String?
    var date: Date?
    /// How many e-mail addresses the paste held.
    var emailCount: Int

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
}

extension Paste: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Paste(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
