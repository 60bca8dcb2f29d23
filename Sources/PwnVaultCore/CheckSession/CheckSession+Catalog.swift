import FoundationEssentials

/// The check session's breach catalog: cached for a day, loading while the checks start, and fetched
/// again once per run for a breach the copy lacks.
extension CheckSession {
    /// Loads the breach catalog (cached for a day under the cache folder; `refresh` fetches it anyway).
    public func catalogLoader(refresh: Bool) throws -> @Sendable () async throws -> BreachCatalogLoad {
        try Self.catalogLoader(cacheDirectory: cacheDirectory, client: publicClient, now: now(), refresh: refresh)
    }

    /// The one way the breach catalog is loaded, with or without a session (the commands that send no
    /// keyed request): cached for a day under `cacheDirectory`, fetched with `client` (no key needed)
    /// when older or when `refresh` says so.
    public static func catalogLoader(cacheDirectory: URL?, client: HIBPClient, now: Date,
                                     refresh: Bool) throws -> @Sendable () async throws -> BreachCatalogLoad {
        guard let cacheDirectory else { throw BreachCatalogError.noCacheDirectory }
        let cache = BreachCatalogCache(directory: cacheDirectory)
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

extension CheckSession {
    /// Gets a run of `entries` ready: the key's rate (`discoverRate`) and the run's catalog. When the
    /// rate must be asked, the catalog loads meanwhile and the checks do not wait for it (only results
    /// need it: `RunCatalog`); otherwise it is loaded first, and `onCatalog` hears at once what went
    /// wrong on the way. Throws what stops a run before any account is checked: a refused key, HIBP
    /// unreachable (for the rate question or the catalog).
    public func prepare(_ entries: [CheckEntry], givenRate: Int?, refreshCatalog: Bool,
                        onEvent: @escaping @Sendable (CheckSessionEvent) -> Void = { _ in },
                        onCatalog: (RunCatalogEvent) -> Void = { _ in }) async throws -> RunCatalog {
        let requests = requests(for: entries)
        if asksForRate(given: givenRate, requests: requests) {
            let catalog = pendingCatalog(refresh: refreshCatalog)
            try await discoverRate(given: nil, requests: requests, onEvent: onEvent)
            return catalog
        }
        try await discoverRate(given: givenRate, requests: 0)
        let load: BreachCatalogLoad
        do {
            load = try await catalogLoader(refresh: refreshCatalog)()
        } catch let error as HIBPError where error.isUnreachable {
            // Checks cannot get through either: stop here.
            throw error
        } catch let error as UserFacingError {
            onCatalog(.unavailable(error))
            return readyCatalog(nil, fetched: false)
        } catch {
            return readyCatalog(nil, fetched: false)
        }
        if load.refreshFailure != nil || load.saveFailure != nil { onCatalog(.loaded(load)) }
        return readyCatalog(load.catalog, fetched: load.fetched)
    }
}
