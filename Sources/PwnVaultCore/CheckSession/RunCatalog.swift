import Dispatch

/// The breach catalog of a check session, still loading while the checks start: only the result lines
/// need it, so the first request does not wait for its download, parse and cache write. The first
/// `get` waits for the load and reports, once, what went wrong on the way; later calls return at once.
/// A result naming a breach the copy lacks fetches it again, once per run.
public final class RunCatalog: @unchecked Sendable {
    // Safe: `loaded` is written once by the loading task before `done` is signalled and read only after
    // waiting on `done`; `catalog` and `waited` are only touched with `lock` held.
    private var loaded: Result<BreachCatalogLoad, Error>?
    private let done = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var waited = false
    private var catalog: BreachCatalog?

    /// Fetches the catalog anew (forced), for a result that names a breach the loaded copy lacks.
    private let refresh: (@Sendable () async throws -> BreachCatalogLoad)?
    /// Whether the copy at hand was fetched by this run (or refreshed for a missing name): fetching
    /// it again would not bring a newer one. Guarded by `lock`.
    private var current = false
    /// The loaded catalog for `peek`, under a lock of its own (`get` holds `lock` while it waits).
    private let peekLock = Lock()
    private var peeked: BreachCatalog?

    /// Starts `load` now; `refresh` fetches a new copy (once per run) when a result names a breach
    /// the loaded copy does not know.
    public init(_ load: @escaping @Sendable () async throws -> BreachCatalogLoad,
         refresh: (@Sendable () async throws -> BreachCatalogLoad)? = nil) {
        self.refresh = refresh
        Task {
            do {
                let load = try await load()
                self.peekLock.withLock { self.peeked = load.catalog }
                self.loaded = .success(load)
            } catch { self.loaded = .failure(error) }
            self.done.signal()
        }
    }

    /// A catalog already at hand (or none); `fetched`: by this run. `refresh` as above.
    public init(ready catalog: BreachCatalog?, fetched: Bool = false,
         refresh: (@Sendable () async throws -> BreachCatalogLoad)? = nil) {
        self.catalog = catalog
        self.refresh = refresh
        current = fetched
        waited = true
        peeked = catalog
    }

    /// The catalog when it is loaded already, without waiting and without reporting anything (nil
    /// while it loads, or when it could not be had): for the saver, which asks which breaches are
    /// sensitive.
    public func peek() -> BreachCatalog? {
        peekLock.withLock { peeked }
    }

    /// The catalog for showing `result`: when it lacks one of the result's breaches and this run has
    /// not fetched it yet, fetched again first (one request, once per run); a breach still unknown
    /// after that is counted, not named, by `Disclosure`.
    public func get(for result: CheckResult, report: (RunCatalogEvent) -> Void) -> BreachCatalog? {
        let loaded = get(report: report)
        return lock.withLock {
            guard let refresh, !current, let loaded, !loaded.knowsEveryBreach(of: result) else { return catalog }
            current = true
            do {
                let load = try blocking(refresh)
                catalog = load.catalog
                peekLock.withLock { peeked = load.catalog }
                report(.loaded(load))
            } catch let error as UserFacingError {
                report(.newerBreachUnnamed(error))
            } catch {}
            return catalog
        }
    }

    /// The catalog, or nil when it could not be had (then `report` was told why, once).
    public func get(report: (RunCatalogEvent) -> Void) -> BreachCatalog? {
        lock.withLock {
            guard !waited else { return catalog }
            done.wait()
            waited = true
            if case let .success(load)? = loaded { current = load.fetched }
            switch loaded! {
            case let .success(load) where load.refreshFailure == nil && load.saveFailure == nil:
                catalog = load.catalog
            case let .success(load):
                catalog = load.catalog
                report(.loaded(load))
            case let .failure(error as UserFacingError):
                // Even unreachable: subscription/status decided whether the run goes on (it stops
                // when HIBP cannot be reached), so the results are shown without breach details.
                report(.unavailable(error))
            case .failure:
                break
            }
            return catalog
        }
    }
}
