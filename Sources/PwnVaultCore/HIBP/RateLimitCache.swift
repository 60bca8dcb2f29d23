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

    public static func fingerprint(_ key: SecretBytes) -> String {
        Sodium.hex(Array(key.withUnsafeBytes { Sodium.blake2b($0, key: nil) }.prefix(16)))
    }

    /// The remembered rate of `key`, if learned within a day.
    public func rpm(for key: SecretBytes, now: Date) -> Int? {
        guard let entry = entries()[Self.fingerprint(key)], now.timeIntervalSince(entry.learnedAt) < Self.maxAge,
              entry.learnedAt <= now else { return nil }
        return entry.rpm
    }

    /// Remembers `rpm` for `key`; failures to write are not worth failing a run for.
    public func remember(_ rpm: Int, for key: SecretBytes, now: Date) {
        var all = entries().filter { now.timeIntervalSince($0.value.learnedAt) < Self.maxAge }
        all[Self.fingerprint(key)] = Entry(rpm: rpm, learnedAt: now)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        if let data = try? encoder.encode(all) { try? folder.write(data, as: Self.fileName) }
    }

    private func entries() -> [String: Entry] {
        guard let data = folder.read(Self.fileName, maxBytes: 1 << 16) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([String: Entry].self, from: data)) ?? [:]
    }
}
