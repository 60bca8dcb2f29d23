import FoundationEssentials

/// Remembers an API key's requests per minute (from `subscription/status`) for a day, so a run
/// does not spend one of a small key's few requests on asking again. Keys are stored only as a
/// fingerprint (BLAKE2b-128 of the key), never themselves.
public struct RateLimitCache: Sendable {
    public static let fileName = "rate-limits.json"
    public static let maxAge: TimeInterval = 86_400
    let folder: PrivateCacheFolder

    public init(directory: URL) { folder = PrivateCacheFolder(directory: directory) }

    private struct Entry: Codable { var rpm: Int; var learnedAt: Date }

    public static func fingerprint(_ key: SecretBytes) -> String { KeyFingerprintFile<Entry>.fingerprint(key) }

    private var file: KeyFingerprintFile<Entry> { KeyFingerprintFile(folder: folder, fileName: Self.fileName) }

    /// The remembered rate of `key`, if learned within a day.
    public func rpm(for key: SecretBytes, now: Date) -> Int? {
        guard let entry = file.entries()[Self.fingerprint(key)], now.timeIntervalSince(entry.learnedAt) < Self.maxAge,
              entry.learnedAt <= now else { return nil }
        return entry.rpm
    }

    /// Remembers `rpm` for `key`; failures to write are not worth failing a run for.
    public func remember(_ rpm: Int, for key: SecretBytes, now: Date) {
        file.remember(Entry(rpm: rpm, learnedAt: now), for: key) { now.timeIntervalSince($0.learnedAt) < Self.maxAge }
    }
}
