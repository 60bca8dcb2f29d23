import FoundationEssentials

/// What pwnvault knows about an API key and the k-anonymity search (`breachedaccount/range`):
///
/// - that HIBP refused the key the search (401/403), or that the server has none (a 404 or an answer
///   that is not a range answer), for a day, so `auto` runs do not spend one of a small key's few
///   requests on asking again; a plan that gains the search is used again by the next day;
/// - what the key's plan says (`subscription/status`'s `IncludesKAnon`), for a day, like the rate in
///   `RateLimitCache` (asked in the same request);
/// - whether the user was told of the fallback: once per key, ever (the daily probe that meets the
///   same refusal again says nothing; `status` and `doctor` keep saying which search is used).
///
/// Keys are stored only as `RateLimitCache.fingerprint`, never themselves.
public struct KAnonymityCache: Sendable {
    public static let fileName = "k-anonymity.json"
    public static let maxAge: TimeInterval = 86_400
    let folder: PrivateCacheFolder

    public init(directory: URL) { folder = PrivateCacheFolder(directory: directory) }

    /// Why e-mail addresses go whole although `auto` would search by range.
    public enum Fallback: String, Codable, Sendable {
        /// HIBP refused the key the search (401/403).
        case refused
        /// The server has no range search (404, or not a range answer).
        case noRangeSearch
    }

    private struct Entry: Codable {
        var refusedAt: Date?
        var fallback: Fallback?
        var planAskedAt: Date?
        var planIncludes: Bool?
        var told: Bool?
    }

    private var file: KeyFingerprintFile<Entry> { KeyFingerprintFile(folder: folder, fileName: Self.fileName) }

    private func entry(_ key: SecretBytes) -> Entry? { file.entries()[RateLimitCache.fingerprint(key)] }

    private func fresh(_ date: Date?, now: Date) -> Bool {
        guard let date else { return false }
        return date <= now && now.timeIntervalSince(date) < Self.maxAge
    }

    /// Why `key`'s addresses went whole within a day, or nil.
    public func fallback(for key: SecretBytes, now: Date) -> Fallback? {
        guard let e = entry(key), fresh(e.refusedAt, now: now) else { return nil }
        return e.fallback ?? .refused
    }

    /// True when HIBP refused `key` the range search (or the server had none) within a day.
    public func isRefused(_ key: SecretBytes, now: Date) -> Bool { fallback(for: key, now: now) != nil }

    /// What `key`'s plan said within a day: true or false; nil when unknown (not asked, or not said).
    public func planIncludes(for key: SecretBytes, now: Date) -> Bool? {
        guard let e = entry(key), fresh(e.planAskedAt, now: now) else { return nil }
        return e.planIncludes
    }

    /// Remembers the refusal (or the missing search); true when the user has not been told of a
    /// fallback for this key before (then they are, from now on). Failures to write are not worth
    /// failing a run for.
    @discardableResult
    public func rememberRefusal(for key: SecretBytes, now: Date, fallback: Fallback = .refused) -> Bool {
        var e = entry(key) ?? Entry()
        let tell = e.told != true
        e.refusedAt = now; e.fallback = fallback; e.told = true
        save(e, for: key, now: now)
        return tell
    }

    /// Remembers what `key`'s plan says of the range search (nil: the answer did not say).
    public func rememberPlan(_ includes: Bool?, for key: SecretBytes, now: Date) {
        var e = entry(key) ?? Entry()
        e.planAskedAt = now; e.planIncludes = includes
        save(e, for: key, now: now)
    }

    private func save(_ e: Entry, for key: SecretBytes, now: Date) {
        file.remember(e, for: key) { [self] old in
            old.told == true || fresh(old.refusedAt, now: now) || fresh(old.planAskedAt, now: now)
        }
    }
}
