import FoundationEssentials

/// Remembers, for a day, that HIBP refused an API key the k-anonymity search (401/403 to
/// `breachedaccount/range`), so `auto` runs do not spend one of a small key's few requests on asking
/// again. A day, like `RateLimitCache`: a plan that gains the search is used again by the next day.
/// Keys are stored only as `RateLimitCache.fingerprint`, never themselves.
public struct KAnonymityCache: Sendable {
    public static let fileName = "k-anonymity.json"
    public static let maxAge: TimeInterval = 86_400
    let folder: PrivateCacheFolder

    public init(directory: URL) { folder = PrivateCacheFolder(directory: directory) }

    private struct Entry: Codable { var refusedAt: Date }

    private var file: KeyFingerprintFile<Entry> { KeyFingerprintFile(folder: folder, fileName: Self.fileName) }

    /// True when HIBP refused `key` the range search within a day.
    public func isRefused(_ key: SecretBytes, now: Date) -> Bool {
        guard let entry = file.entries()[RateLimitCache.fingerprint(key)] else { return false }
        return entry.refusedAt <= now && now.timeIntervalSince(entry.refusedAt) < Self.maxAge
    }

    /// Remembers the refusal; failures to write are not worth failing a run for.
    public func rememberRefusal(for key: SecretBytes, now: Date) {
        file.remember(Entry(refusedAt: now), for: key) { now.timeIntervalSince($0.refusedAt) < Self.maxAge }
    }
}
