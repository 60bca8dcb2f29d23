/// What happened on the way to a run's breach catalog that the user should hear about (`RunCatalog`).
public enum RunCatalogEvent: @unchecked Sendable {
    // Safe: values built once and only read after.
    /// The catalog was loaded with a refresh or save failure, or fetched again for a name it lacked:
    /// its `refreshFailure` and `saveFailure` say what went wrong, if anything.
    case loaded(BreachCatalogLoad)
    /// No catalog could be had: results go on without breach titles.
    case unavailable(any UserFacingError)
    /// Fetching it again for a breach newer than the cached copy failed: that breach stays unnamed.
    case newerBreachUnnamed(any UserFacingError)
}
