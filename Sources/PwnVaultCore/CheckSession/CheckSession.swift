import FoundationEssentials

/// One run of account checks against HIBP, the use case behind `check`, `watch` and the ui: which
/// accounts are due (`due`, `forced`), the key's rate (`discoverRate`: `--rpm`, else the rate learned
/// by an earlier run, for one account too, else asked), every keyed request paced on the run's one
/// `RequestSchedule` under the one retry policy, the breach catalog (`catalog`, refreshed once per run
/// for a name it lacks), each result saved in the vault as it arrives (with what it found first), and
/// the report. It never prints: the caller renders its `CheckSessionEvent`s.
///
/// Everything it talks to is given: the HTTP transport, the scheduler clock, the date, the API key,
/// the cache folder (rate and k-anonymity memory, the catalog) and the vault session.
public final class CheckSession: @unchecked Sendable {
    // Safe: every stored property is immutable; the vault session is only used by the saver's serial
    // queue while `run` runs, and by the caller outside it.

    public struct Options: Sendable {
        /// Also ask for pastes, and for stealer-log websites, of each e-mail address.
        public var pastes: Bool
        public var stealerLogs: Bool
        public var kAnonymity: KAnonymityMode
        /// The longest wait a 429 may ask for before the run stops, in seconds.
        public var maxWait: Int
        /// New findings are saved as waiting for delivery (`watch`: VAULT_FORMAT §7, `unannounced`).
        public var unannounced: Bool
        /// Each request's deadline (nil: the transport's, `PWNVAULT_HTTP_TIMEOUT`).
        public var requestTimeout: Duration?
        /// Whether a failed request is tried again (5xx, timeouts) and a 429 waited for. `doctor` asks
        /// once, within its own deadline, and says what it got.
        public var retries: Bool

        public init(pastes: Bool = false, stealerLogs: Bool = false, kAnonymity: KAnonymityMode = .off,
                    maxWait: Int = 60, unannounced: Bool = false, requestTimeout: Duration? = nil, retries: Bool = true) {
            self.pastes = pastes; self.stealerLogs = stealerLogs; self.kAnonymity = kAnonymity
            self.maxWait = maxWait; self.unannounced = unannounced
            self.requestTimeout = requestTimeout; self.retries = retries
        }
    }

    /// The keyed client and the public one (the catalog), on the given transport.
    public let client: HIBPClient
    public let publicClient: HIBPClient
    /// The run's one schedule of keyed requests.
    public let schedule: RequestSchedule
    public let options: Options
    public let vault: VaultSession?
    let apiKey: SecretBytes
    let cacheDirectory: URL?
    let now: @Sendable () -> Date
    let random: @Sendable () -> Double
    /// What `subscription/status` said of the range search in this run, once asked.
    private let plan = Locked<(asked: Bool, value: Bool?)>((false, nil))

    public init(transport: any HTTPTransport, baseURL: URL, version: String, apiKey: SecretBytes,
                clock: any SchedulerClock = SystemSchedulerClock(), now: @escaping @Sendable () -> Date,
                cacheDirectory: URL?, vault: VaultSession?, options: Options,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        client = HIBPClient(baseURL: baseURL, apiKey: apiKey, version: version, transport: transport, timeout: options.requestTimeout)
        publicClient = HIBPClient(baseURL: baseURL, apiKey: nil, version: version, transport: transport)
        schedule = RequestSchedule(requestsPerMinute: nil, clock: clock)
        var policy = RetryPolicy(maxWait: .seconds(options.maxWait))
        if !options.retries {
            // One try: no retry, and a 429 ends the request rather than being waited for.
            policy.maxRetries = 0
            policy.maxRateLimitRetries = 0
            policy.maxWait = .zero
        }
        retryPolicy = policy
        self.apiKey = apiKey; self.now = now; self.cacheDirectory = cacheDirectory
        self.vault = vault; self.options = options; self.random = random
    }

    /// The session of a run, as every command builds it: the API base and the cache folder
    /// (`$XDG_CACHE_HOME/pwnvault`: the remembered rate and range-search answers, the catalog) from
    /// `settings`, the run's transport and key. A run builds one: the one door to keyed HIBP work
    /// (the rate question, checks, domain searches, single requests), on its one schedule.
    public convenience init(settings: Settings, transport: any HTTPTransport, apiKey: SecretBytes, version: String,
                            now: @escaping @Sendable () -> Date, vault: VaultSession?, options: Options) {
        self.init(transport: transport, baseURL: settings.apiBase, version: version, apiKey: apiKey, now: now,
                  cacheDirectory: settings.pwnvaultCacheDirectory, vault: vault, options: options)
    }

    /// The run's retry policy, the one every request of the session is retried under: every wait is
    /// bounded by `options.maxWait`.
    public let retryPolicy: RetryPolicy

    /// A scheduler on the run's schedule and retry policy, its long waits told as `waiting(reason)`
    /// events: the one way the session's requests are sent.
    func scheduler(_ reason: CheckSessionEvent.WaitReason,
                   onEvent: @escaping @Sendable (CheckSessionEvent) -> Void) -> CheckScheduler {
        CheckScheduler(schedule: schedule, retryPolicy: retryPolicy, random: random,
                       onLongWait: { onEvent(.waiting(reason: reason, duration: $0)) })
    }

    // MARK: the key's rate

    /// The key's rate as remembered from an earlier run (`RateLimitCache`), put on the schedule while
    /// it still guesses; nil when none is.
    @discardableResult
    public func rememberedRate() -> Int? {
        guard let rpm = cacheDirectory.flatMap({ RateLimitCache(directory: $0).rpm(for: apiKey, now: now()) }) else { return nil }
        if schedule.limiter.isGuess { schedule.learn(requestsPerMinute: rpm) }
        return rpm
    }

    /// Whether `discoverRate(given:requests:)` will ask HIBP (no `--rpm`, no remembered rate, and more
    /// than one keyed request to pace). Puts a remembered rate on the schedule.
    public func asksForRate(given: Int?, requests: Int) -> Bool {
        given == nil && rememberedRate() == nil && requests > 1
    }

    /// The key's rate: `given` (--rpm), else remembered from an earlier run (for one account too), else
    /// asked (once a day) when the run sends more than one keyed request, in the schedule's first slot.
    /// Whatever is found is put on the schedule. Nil: unknown (the 10-a-minute guess paces the run, and
    /// `.notice(.rateUnknown)` says so when HIBP did not answer). A refused key or an unreachable HIBP
    /// throws here, before any account is looked up.
    @discardableResult
    public func discoverRate(given: Int?, requests: Int,
                             onEvent: @escaping @Sendable (CheckSessionEvent) -> Void = { _ in }) async throws -> Int? {
        if let given {
            schedule.learn(requestsPerMinute: given, rateFromUser: true)
            return given
        }
        if let known = rememberedRate() { return known }
        guard requests > 1 else { return nil }
        let scheduler = scheduler(.rateQuestion, onEvent: onEvent)
        let client = self.client
        let rpm: Int?
        do {
            let status = try await scheduler.one { try await client.spaced($0).subscriptionStatus() }
            rpm = status.rpm
            // The plan says whether it includes the range search (absent: unknown, then probed).
            plan.withLock { $0 = (true, status.includesKAnonymity) }
            cacheDirectory.map(KAnonymityCache.init(directory:))?.rememberPlan(status.includesKAnonymity, for: apiKey, now: now())
        } catch let e as HIBPError where e.stopsRun {
            throw e
        } catch {
            onEvent(.notice(.rateUnknown))
            return nil
        }
        if let rpm {
            schedule.learn(requestsPerMinute: rpm)
            cacheDirectory.map(RateLimitCache.init(directory:))?.remember(rpm, for: apiKey, now: now())
        }
        return rpm
    }

    /// How many keyed requests checking `entries` sends (pastes and stealer logs are per address):
    /// counted on the list `AccountCheckRun` sends.
    public func requests(for entries: [CheckEntry]) -> Int {
        AccountCheckRun.requestCount(entries.enumerated().map { $1.target($0) }, pastes: options.pastes,
                                     stealerLogs: options.stealerLogs, kAnonymity: options.kAnonymity)
    }

    // MARK: the run

    /// Checks `entries` on the run's schedule, saving each vault account's result as it arrives (on a
    /// queue of its own, so no request waits for the disk). Events: `started`, `waiting`/`notice`,
    /// `saved`/`result` (each result once the save that holds it completed), `finished`. Cancelling the
    /// calling task stops the run, keeping every finished result (`interrupted`).
    @discardableResult
    public func run(_ entries: [CheckEntry], catalog: RunCatalog? = nil,
                    onEvent given: @escaping @Sendable (CheckSessionEvent) -> Void) async -> CheckRunReport {
        // Every notice is told as it comes and kept for the report.
        let notices = Locked<[CheckSessionEvent.Notice]>([])
        let onEvent: @Sendable (CheckSessionEvent) -> Void = { event in
            if case let .notice(notice) = event { notices.withLock { $0.append(notice) } }
            given(event)
        }
        onEvent(.started(total: entries.count))
        let targets = entries.enumerated().map { $1.target($0) }
        let scheduler = scheduler(.checks, onEvent: onEvent)
        // A refusal of the range search (or a server without it) is remembered for a day (auto starts
        // whole meanwhile) and told once per key; what the plan says (this run's question, else
        // remembered for a day) decides without probing.
        let cache = cacheDirectory.map(KAnonymityCache.init(directory:))
        let remembered: KAnonymityCache? = options.kAnonymity == .auto ? cache : nil
        let key = apiKey
        let now = self.now
        let refusedBefore = remembered?.isRefused(key, now: now()) ?? false
        let asked = plan.value
        let planIncludes = asked.asked ? asked.value : cache?.planIncludes(for: key, now: now())
        let checkRun = AccountCheckRun(client: client, scheduler: scheduler, pastes: options.pastes, stealerLogs: options.stealerLogs,
                                       kAnonymity: options.kAnonymity, rangeRefused: refusedBefore, planIncludes: planIncludes, now: now,
                                       onStealerLogsRefused: { onEvent(.notice(.stealerLogsRefused($0))) },
                                       onKAnonymityRefused: { error in
            let fallback: KAnonymityCache.Fallback
            if case .noRangeSearch = error { fallback = .noRangeSearch } else { fallback = .refused }
            let tell = remembered?.rememberRefusal(for: key, now: now(), fallback: fallback) ?? true
            if tell { onEvent(.notice(.kAnonymityRefused(error))) }
        })
        let checks = Locked<[AccountCheck]>([])
        // A sensitive breach a domain search found is not "no longer listed" by an answer that never lists one.
        let saver = CheckResultSaver(session: vault, unannounced: options.unannounced,
                                     isSensitive: { name in catalog?.peek()?.breach(named: name)?.isSensitive ?? false },
                                     onSaved: { ids in if !ids.isEmpty { onEvent(.saved(accountIDs: ids)) } })
        let result: Result<CheckRunReport, Error>
        do {
            result = .success(try await checkRun.run(targets, onCheck: { target, check in
                var check = check
                check.entry = entries[target.index]
                saver.save(check) { recorded in
                    checks.withLock { $0.append(recorded) }
                    onEvent(.result(recorded))
                }
            }))
        } catch {
            result = .failure(error)
        }
        // The run has ended (all checked, cancelled, an HIBP error): what it handed over is saved and
        // reported before the report.
        let saveFailure = saver.drain()
        var report = CheckRunReport()
        switch result {
        case let .success(ran): report = ran
        case let .failure(error as HIBPError):
            report.stop = error
            switch error {
            case .kAnonymityRefused, .kAnonymityUnavailable: report.lookup = KAnonymityMode.rangeLabel
            default: break
            }
        case .failure(is CancellationError): report.interrupted = true
        case let .failure(error): report.stop = error
        }
        report.checks = checks.value
        report.saveFailure = saveFailure
        report.notices = notices.value
        onEvent(.finished(report))
        return report
    }

    /// Records the checks of a run made without a vault (the ui's: it owns its vault session on its
    /// own thread) in `vault`, exactly as a run with a vault saves them (`CheckResultSaver`): the same
    /// findings, news and "no longer listed" marks, a breach `catalog` marks sensitive left to a search
    /// that lists it. Returns what each found first and no longer lists.
    @discardableResult
    public static func record(_ checks: [(id: Int, check: AccountCheck)], in vault: VaultSession, catalog: BreachCatalog?,
                              unannounced: Bool = false) throws -> [Account.FindingChanges] {
        var changes: [Account.FindingChanges] = []
        try vault.update { payload in
            changes = CheckResultSaver.record(checks.map { ($0.id, $0.check) }, in: &payload, unannounced: unannounced,
                                              isSensitive: { catalog?.breach(named: $0)?.isSensitive ?? false })
                .map { $0?.1 ?? Account.FindingChanges() }
        }
        return changes
    }
}

extension Settings {
    /// The API base as the client wants it: ending in `/`.
    public var apiBase: URL {
        let s = apiBaseURL.absoluteString
        return URL(string: s.hasSuffix("/") ? s : s + "/")!
    }

    /// `$XDG_CACHE_HOME/pwnvault` (the remembered rate and range-search answers, the breach catalog);
    /// nil when there is no cache home.
    public var pwnvaultCacheDirectory: URL? {
        cacheHome.map { URL(fileURLWithPath: $0).appendingPathComponent("pwnvault", isDirectory: true) }
    }
}
