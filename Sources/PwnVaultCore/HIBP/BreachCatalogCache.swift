import FoundationEssentials

/// The breach catalog kept on disk: `$XDG_CACHE_HOME/pwnvault/breaches.json`
/// (or `$HOME/.cache/pwnvault/breaches.json`), refreshed when older than a day or on demand.
///
/// The folder is 0700 and must be a real folder owned by this user (not a symlink); the file is
/// 0600 and written atomically (a temporary file, `fsync`, `rename`), so a reader never sees half a
/// catalog. A damaged or unreadable cache counts as no cache. The file holds only HIBP's public
/// catalog and when it was fetched, never an account.
///
/// File format: `{"format":1,"fetchedAt":"2024-05-01T12:00:00Z","breaches":[…HIBP's Breach objects…]}`.
public struct BreachCatalogCache: Sendable {
    /// A day.
    public static let defaultMaxAge: TimeInterval = 86_400
    public static let fileName = "breaches.json"
    /// Larger than this and the file is not ours (the real catalog is about 1 MB).
    static let maxFileBytes = 32 << 20

    /// The `pwnvault` cache folder.
    public let directory: URL
    public let maxAge: TimeInterval

    public init(directory: URL, maxAge: TimeInterval = BreachCatalogCache.defaultMaxAge) {
        self.directory = directory
        self.maxAge = maxAge
    }

    /// The cache file's location.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// The catalog: from the cache when it is younger than `maxAge` and `forceRefresh` is false;
    /// otherwise fetched with `fetch` and saved. When a refresh fails and a cached copy exists, that
    /// copy is returned with `refreshFailure` set; without one, the failure is thrown.
    public func catalog(now: Date, forceRefresh: Bool = false,
                        fetch: @Sendable () async throws -> [Breach]) async throws -> BreachCatalogLoad {
        let cached = load()
        if !forceRefresh, let cached, !cached.isStale(now: now, maxAge: maxAge) {
            return BreachCatalogLoad(catalog: cached, fetched: false)
        }
        let breaches: [Breach]
        do {
            breaches = try await fetch()
        } catch let error as HIBPError {
            guard let cached else { throw error }
            return BreachCatalogLoad(catalog: cached, fetched: false, refreshFailure: error)
        }
        let fresh = BreachCatalog(breaches: breaches, fetchedAt: now)
        do {
            try save(fresh)
            return BreachCatalogLoad(catalog: fresh, fetched: true)
        } catch let error as BreachCatalogError {
            return BreachCatalogLoad(catalog: fresh, fetched: true, saveFailure: error)
        }
    }

    /// The cached catalog, or nil when there is none or it cannot be read.
    public func load() -> BreachCatalog? {
        guard let data = PrivateCacheFolder(directory: directory).read(Self.fileName, maxBytes: Self.maxFileBytes),
              let file = try? JSONDecoder().decode(CacheFile.self, from: data),
              file.format == CacheFile.currentFormat,
              let fetchedAt = HIBPTimestamp.parse(file.fetchedAt) else { return nil }
        return BreachCatalog(breaches: file.breaches, fetchedAt: fetchedAt)
    }

    /// Writes `catalog` atomically, creating the folder (0700) when needed.
    public func save(_ catalog: BreachCatalog) throws {
        let file = CacheFile(format: CacheFile.currentFormat, fetchedAt: HIBPTimestamp.format(catalog.fetchedAt),
                             breaches: catalog.breaches)
        let data: Data
        do { data = try JSONEncoder().encode(file) } catch {
            throw BreachCatalogError.writeFailed(path: fileURL.path, reason: phrase("the catalog could not be encoded"))
        }
        try PrivateCacheFolder(directory: directory).write(data, as: Self.fileName)
    }

    private struct CacheFile: Codable {
        static let currentFormat = 1
        var format: Int
        var fetchedAt: String
        var breaches: [Breach]
    }
}
