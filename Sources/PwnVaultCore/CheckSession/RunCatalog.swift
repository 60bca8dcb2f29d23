import Dispatch

/// The breach catalog of a check session, still loading while the checks start: only the result lines
/// need it, so the first request does not wait for its download, parse and cache write. The first
/// `get` waits for the load and reports, once, what went wrong on the way; later calls return at once.
/// A result naming a breach the copy lacks fetches it again, once per run.
public final class RunCatalog: Sendable {
    /// What the loading task produced, set once before `done` is signalled.
    private let loaded = Locked<Result<BreachCatalogLoad, Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// The copy at hand, once waited for.
    private struct State: Sendable {
        var waited = false
        var catalog: BreachCatalog?
        /// Whether the copy at hand was fetched by this run (or refreshed for a missing name): fetching
        /// it again would not bring a newer one.
        var current = false
    }
    private let state: Locked<State>

    /// Fetches the catalog anew (forced), for a result that names a breach the loaded copy lacks.
    private let refresh: (@Sendable () async throws -> BreachCatalogLoad)?
    /// The loaded catalog for `peek`, under a lock of its own (`get` holds `state`'s while it waits).
    private let peeked = Locked<BreachCatalog?>(nil)

    /// Starts `load` now; `refresh` fetches a new copy (once per run) when a result names a breach
    /// the loaded copy does not know.
    public init(_ load: @escaping @Sendable () async throws -> BreachCatalogLoad,
         refresh: (@Sendable () async throws -> BreachCatalogLoad)? = nil) {
        self.refresh = refresh
        state = Locked(State())
        Task {
            do {
                let load = try await load()
                self.peeked.withLock { $0 = load.catalog }
                self.loaded.withLock { $0 = .success(load) }
            } catch { self.loaded.withLock { $0 = .failure(error) } }
            self.done.signal()
        }
    }

    /// A catalog already at hand (or none); `fetched`: by this run. `refresh` as above.
    public init(ready catalog: BreachCatalog?, fetched: Bool = false,
         refresh: (@Sendable () async throws -> BreachCatalogLoad)? = nil) {
        self.refresh = refresh
        state = Locked(State(waited: true, catalog: catalog, current: fetched))
        peeked.withLock { $0 = catalog }
    }

    /// The catalog when it is loaded already, without waiting and without reporting anything (nil
    /// while it loads, or when it could not be had): for the saver, which asks which breaches are
    /// sensitive.
    public func peek() -> BreachCatalog? {
        peeked.value
    }

    /// The catalog for showing `result`: when it lacks one of the result's breaches and this run has
    /// not fetched it yet, fetched again first (one request, once per run); a breach still unknown
    /// after that is counted, not named, by `Disclosure`.
    public func get(for result: CheckResult, report: (RunCatalogEvent) -> Void) -> BreachCatalog? {
        let loaded = get(report: report)
        return state.withLock { s in
            guard let refresh, !s.current, let loaded, !loaded.knowsEveryBreach(of: result) else { return s.catalog }
            s.current = true
            do {
                let load = try blocking(refresh)
                s.catalog = load.catalog
                peeked.withLock { $0 = load.catalog }
                report(.loaded(load))
            } catch let error as UserFacingError {
                report(.newerBreachUnnamed(error))
            } catch {}
            return s.catalog
        }
    }

    /// The catalog, or nil when it could not be had (then `report` was told why, once).
    public func get(report: (RunCatalogEvent) -> Void) -> BreachCatalog? {
        state.withLock { s in
            guard !s.waited else { return s.catalog }
            done.wait()
            s.waited = true
            let loaded = self.loaded.value
            if case let .success(load)? = loaded { s.current = load.fetched }
            switch loaded! {
            case let .success(load) where load.refreshFailure == nil && load.saveFailure == nil:
                s.catalog = load.catalog
            case let .success(load):
                s.catalog = load.catalog
                report(.loaded(load))
            case let .failure(error as UserFacingError):
                // Even unreachable: subscription/status decided whether the run goes on (it stops
                // when HIBP cannot be reached), so the results are shown without breach details.
                report(.unavailable(error))
            case .failure:
                break
            }
            return s.catalog
        }
    }
}
