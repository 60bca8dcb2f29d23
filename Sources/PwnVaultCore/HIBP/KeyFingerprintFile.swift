import FoundationEssentials

/// One small JSON file of the private cache folder that maps an API key's fingerprint to what was
/// learned about the key (its rate, a refused search), each entry kept for `maxAge`. The key itself
/// is never stored: only `fingerprint(_:)`. Reading a damaged file gives nothing; a failed write is
/// not worth failing a run for.
struct KeyFingerprintFile<Entry: Codable> {
    let folder: PrivateCacheFolder
    let fileName: String

    /// BLAKE2b-128 of the key, in hex.
    static func fingerprint(_ key: SecretBytes) -> String {
        Sodium.hex(Array(key.withUnsafeBytes { Sodium.blake2b($0, key: nil) }.prefix(16)))
    }

    /// Every entry, keyed by fingerprint.
    func entries() -> [String: Entry] {
        guard let data = folder.read(fileName, maxBytes: 1 << 16) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([String: Entry].self, from: data)) ?? [:]
    }

    /// Sets `key`'s entry, keeping the others that `keep` says are still good.
    func remember(_ entry: Entry, for key: SecretBytes, keeping keep: (Entry) -> Bool) {
        var all = entries().filter { keep($0.value) }
        all[Self.fingerprint(key)] = entry
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        if let data = try? encoder.encode(all) { try? folder.write(data, as: fileName) }
    }
}
