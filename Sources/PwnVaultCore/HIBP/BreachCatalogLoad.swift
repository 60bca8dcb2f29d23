/// What `BreachCatalogCache.catalog` found, and whether anything went wrong on the way.
public struct BreachCatalogLoad: Sendable {
    public let catalog: BreachCatalog
    /// True when the catalog was fetched from HIBP by this call; false when it came from the cache.
    public let fetched: Bool
    /// Set when a refresh was due but failed, and the stale cached copy is returned instead.
    public let refreshFailure: HIBPError?
    /// Set when a fetched catalog could not be saved (it is still returned).
    public let saveFailure: BreachCatalogError?

    public init(catalog: BreachCatalog, fetched: Bool, refreshFailure: HIBPError? = nil,
                saveFailure: BreachCatalogError? = nil) {
        self.catalog = catalog; self.fetched = fetched
        self.refreshFailure = refreshFailure; self.saveFailure = saveFailure
    }
}
