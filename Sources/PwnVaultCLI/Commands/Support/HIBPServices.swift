import Dispatch
import FoundationEssentials
import PwnVaultCore

/// What the HIBP commands need that is not a keyed request: the API base, the run's API key (said
/// where it came from), the public client and the breach catalog (cached), the cache folder, and the
/// notes said about them. Every keyed request goes through the run's one `CheckSession` (built by
/// `CheckSession(settings:transport:apiKey:…)`), on its one schedule and retry policy.
struct HIBPServices {
    let context: Context
    let transport: any HTTPTransport

    init(_ context: Context) {
        self.context = context
        self.transport = context.transport
    }

    /// The API base as the client wants it: ending in `/`.
    var baseURL: URL { context.settings.apiBase }

    /// A client without a key: for the public catalog endpoints.
    func publicClient() -> HIBPClient {
        HIBPClient(baseURL: baseURL, apiKey: nil, version: CLI.version, transport: transport)
    }

    /// The run's API key; says where it came from when it is not the usual one.
    func apiKey(allOnTestDomain: Bool) throws -> SecretBytes {
        let (key, source) = try APIKey.resolve(environmentKey: context.settings.environmentAPIKey, keyring: context.keyring, allOnTestDomain: allOnTestDomain)
        if source == .publicTestKey {
            context.console.note(msg("using HIBP's public test key (it works for {1} accounts only)", APIKey.testDomain))
        }
        return key
    }

    /// The run's one check session, for keyed work with `key` (the vault's results saved in `vault`).
    func checkSession(key: SecretBytes, vault: VaultSession?, options: CheckSession.Options) -> CheckSession {
        CheckSession(settings: context.settings, transport: transport, apiKey: key, version: CLI.version, now: context.now,
                     vault: vault, options: options)
    }

    /// What is said before a long wait for HIBP (and once 429s in a row add up to one).
    static func waitNote(_ wait: Duration, stopping: String = msg("Ctrl-C stops here")) -> String {
        let seconds = Int(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18 + 0.5)
        return msg("HIBP asks to slow down (429): waiting {1} s before asking again ({2})", seconds, stopping)
    }

    /// `$XDG_CACHE_HOME/pwnvault`.
    func cacheDirectory() throws -> URL {
        guard let directory = context.settings.pwnvaultCacheDirectory else { throw BreachCatalogError.noCacheDirectory }
        return directory
    }

    /// The breach catalog: cached for a day under $XDG_CACHE_HOME/pwnvault, refreshed on demand.
    /// Falls back to the cached copy, with a note, when a refresh fails.
    func catalog(refresh: Bool) throws -> BreachCatalog {
        let load = try blocking(catalogLoader(refresh: refresh))
        return reported(load)
    }

    /// The async part of `catalog(refresh:)`, to run beside other requests (check asks for the key's
    /// rate at the same time); hand its result to `reported(_:)`.
    func catalogLoader(refresh: Bool) throws -> @Sendable () async throws -> BreachCatalogLoad {
        try CheckSession.catalogLoader(cacheDirectory: cacheDirectory(), client: publicClient(), now: context.now(), refresh: refresh)
    }

    /// Says what went wrong on the way to the catalog, if anything, and returns it.
    func reported(_ load: BreachCatalogLoad) -> BreachCatalog { Self.reported(load, console: context.console) }

    /// The one line said when no catalog could be had: results go on without breach titles.
    static func noteUnavailable(_ error: UserFacingError, console: Console) {
        console.note(error.hint.map { msg("breach details unavailable: {1} ({2}; results are shown without them; 'pwnvault breaches --refresh' tries again)", error.message, $0) }
                     ?? msg("breach details unavailable: {1} (results are shown without them; 'pwnvault breaches --refresh' tries again)", error.message))
    }

    static func reported(_ load: BreachCatalogLoad, console: Console) -> BreachCatalog {
        if let failure = load.refreshFailure {
            console.note(msg("could not refresh the breach catalog ({1}); using the copy from {2}", failure.message, StateText.time(load.catalog.fetchedAt)))
        }
        if let failure = load.saveFailure { console.warning(failure.message) }
        return load.catalog
    }

    /// The catalog fetched now (one request, no key), for `watch`: an older copy would hide news.
    /// Saved to the cache like any other fetch; a failure stops the run.
    func freshCatalog() throws -> BreachCatalog {
        let load = try blocking(catalogLoader(refresh: true))
        if let failure = load.refreshFailure { throw failure }
        if let failure = load.saveFailure { context.console.warning(failure.message) }
        return load.catalog
    }

    /// The cached catalog, however old, without touching the network; nil when there is none.
    /// For commands that never go online (list): it only decides which breaches may be named.
    func cachedCatalog() -> BreachCatalog? {
        (try? cacheDirectory()).flatMap { BreachCatalogCache(directory: $0).load() }
    }

    /// The catalog if it can be had, else nil with a note (show and check still work without titles).
    /// When a cached copy lacks a breach of `results` (one added to HIBP since), it is fetched again
    /// once; a failure then keeps the cached copy, with a note. The same when it knows no breach by one
    /// of the names or titles `texts` (typed by the user: `ack`).
    func catalogIfAvailable(refresh: Bool = false, covering results: [CheckResult] = [], naming texts: [String] = []) -> BreachCatalog? {
        do {
            let load = try blocking(catalogLoader(refresh: refresh))
            let catalog = reported(load)
            let lacksOne = !results.allSatisfy(catalog.knowsEveryBreach) || !texts.allSatisfy { catalog.breach(namedOrTitled: $0) != nil }
            guard !load.fetched, lacksOne else { return catalog }
            do { return reported(try blocking(catalogLoader(refresh: true))) } catch let e as UserFacingError {
                context.console.note(msg("a breach newer than the breach catalog could not be named: {1}", e.message))
                return catalog
            }
        } catch let e as UserFacingError {
            Self.noteUnavailable(e, console: context.console)
            return nil
        } catch { return nil }
    }
}
