import FoundationEssentials

/// The check session's breach catalog: cached for a day, loading while the checks start, and fetched
/// again once per run for a breach the copy lacks.
extension CheckSession {
    /// Loads the breach catalog (cached for a day under the cache folder; `refresh` fetches it anyway).
    public func catalogLoader(refresh: Bool) throws -> @Sendable () async throws -> BreachCatalogLoad {
        guard let cacheDirectory else { throw BreachCatalogError.noCacheDirectory }
        let cache = BreachCatalogCache(directory: cacheDirectory)
        let client = publicClient
        let now = self.now()
        return { try await cache.catalog(now: now, forceRefresh: refresh) { try await client.breaches() } }
    }

    /// The run's catalog, loading while the checks start; a result naming a breach it lacks fetches it
    /// again, once per run.
    public func pendingCatalog(refresh: Bool) -> RunCatalog {
        let loader = Result { try catalogLoader(refresh: refresh) }
        return RunCatalog({ try await loader.get()() }, refresh: try? catalogLoader(refresh: true))
    }

    /// A catalog already at hand (or none, or not yet fetched by this run), refreshed the same way.
    public func readyCatalog(_ catalog: BreachCatalog?, fetched: Bool) -> RunCatalog {
        RunCatalog(ready: catalog, fetched: fetched, refresh: try? catalogLoader(refresh: true))
    }
}
