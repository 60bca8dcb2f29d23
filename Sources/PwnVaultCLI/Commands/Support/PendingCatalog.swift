import Dispatch
import PwnVaultCore

/// The breach catalog for showing results, still loading while the checks start: only the result lines
/// need it, so the first request does not wait for its download, parse and cache write. The first
/// `get` waits for the load and says, once, what went wrong on the way; later calls return at once.
final class PendingCatalog: @unchecked Sendable {
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

    /// Starts `load` now; `refresh` fetches a new copy (once per run) when a result names a breach
    /// the loaded copy does not know.
    init(_ load: @escaping @Sendable () async throws -> BreachCatalogLoad,
         refresh: (@Sendable () async throws -> BreachCatalogLoad)? = nil) {
        self.refresh = refresh
        Task {
            do { self.loaded = .success(try await load()) } catch { self.loaded = .failure(error) }
            self.done.signal()
        }
    }

    /// A catalog already at hand (or none); `fetched`: by this run. `refresh` as above.
    init(ready catalog: BreachCatalog?, fetched: Bool = false,
         refresh: (@Sendable () async throws -> BreachCatalogLoad)? = nil) {
        self.catalog = catalog
        self.refresh = refresh
        current = fetched
        waited = true
    }

    /// The catalog for showing `result`: when it lacks one of the result's breaches and this run has
    /// not fetched it yet, fetched again first (one request, once per run); a breach still unknown
    /// after that is counted, not named, by `Disclosure`.
    func get(for result: CheckResult, console: Console, beforeNotes: () -> Void = {}) -> BreachCatalog? {
        let loaded = get(console: console, beforeNotes: beforeNotes)
        return lock.withLock {
            guard let refresh, !current, let loaded, !loaded.knowsEveryBreach(of: result) else { return catalog }
            current = true
            do {
                let load = try blocking(refresh)
                beforeNotes()
                catalog = HIBPServices.reported(load, console: console)
            } catch let error as UserFacingError {
                beforeNotes()
                console.note("a breach newer than the breach catalog could not be named: \(error.message)")
            } catch {}
            return catalog
        }
    }

    /// The catalog, or nil when it could not be had (then a note said why, once). `beforeNotes` runs
    /// before anything is said (it clears the progress bar).
    func get(console: Console, beforeNotes: () -> Void = {}) -> BreachCatalog? {
        lock.withLock {
            guard !waited else { return catalog }
            done.wait()
            waited = true
            if case let .success(load)? = loaded { current = load.fetched }
            switch loaded! {
            case let .success(load) where load.refreshFailure == nil && load.saveFailure == nil:
                catalog = load.catalog
            case let .success(load):
                beforeNotes()
                catalog = HIBPServices.reported(load, console: console)
            case let .failure(error as UserFacingError):
                // Even unreachable: subscription/status decided whether the run goes on (it stops
                // when HIBP cannot be reached), so the results are shown without breach details.
                beforeNotes()
                HIBPServices.noteUnavailable(error, console: console)
            case .failure:
                break
            }
            return catalog
        }
    }
}
