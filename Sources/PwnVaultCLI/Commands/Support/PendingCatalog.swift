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

    /// Starts `load` now.
    init(_ load: @escaping @Sendable () async throws -> BreachCatalogLoad) {
        Task {
            do { self.loaded = .success(try await load()) } catch { self.loaded = .failure(error) }
            self.done.signal()
        }
    }

    /// A catalog already at hand (or none).
    init(ready catalog: BreachCatalog?) {
        self.catalog = catalog
        waited = true
    }

    /// The catalog, or nil when it could not be had (then a note said why, once). `beforeNotes` runs
    /// before anything is said (it clears the progress bar).
    func get(console: Console, beforeNotes: () -> Void = {}) -> BreachCatalog? {
        lock.withLock {
            guard !waited else { return catalog }
            done.wait()
            waited = true
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
