import FoundationEssentials

/// Checks accounts against HIBP as fast as the key allows: one `breachedaccount` request per
/// account (and one `pasteaccount` request per e-mail address with `pastes`, one
/// `stealerlogsbyemail` request per e-mail address with `stealerLogs`), paced by a
/// `CheckScheduler`, each account's `AccountCheck` delivered as soon as it is complete.
///
/// E-mail addresses are looked up by k-anonymity (`breachedaccount/range`, only 6 hex characters of
/// the address's SHA-1 leave) unless `kAnonymity` is `.off` or the key is already known to be refused
/// it (`rangeRefused`). In `.auto`, the first refusal (401/403) switches the rest of the run to the
/// whole address: the refused account is asked again at the next slot (same pacing) and
/// `onKAnonymityRefused` is told, once; until the first range search is answered no other request
/// starts, so that refusal costs one request. In `.require`, the refusal ends the run
/// (`HIBPError.kAnonymityRefused`) before any address is sent whole.
///
/// A server without the range search (a 404 there, or an answer that is not the documented list:
/// `HIBPError.noRangeSearch`) is met the same way: `.auto` goes whole (told as the refusal is), and
/// `.require` stops (`HIBPError.kAnonymityUnavailable`). Such an answer never makes an account clean.
/// Where the key's plan says (`planIncludes`, from `subscription/status`), nothing is probed: a plan
/// without the search sends no range request (and `.require` stops before any request), a plan with it
/// searches by range from the first request on.
///
/// Stealer logs need a higher subscription and a domain the key verified: when HIBP refuses one
/// (401 or 403), that account goes on without them and `onStealerLogsRefused` is told, once per run.
public struct AccountCheckRun: Sendable {
    /// One account to check, by its position in the caller's list.
    public struct Target: Sendable {
        public let index: Int
        /// The normalised account, as HIBP is asked for it (internal: never shown).
        let account: String
        public let kind: AccountKind
        init(index: Int, account: String, kind: AccountKind) {
            self.index = index; self.account = account; self.kind = kind
        }
        /// A vault account to check.
        public init(index: Int, account: Account) { self.init(index: index, account: account.normalized, kind: account.kind) }
        /// An account from the command line that is not in the vault.
        public init(index: Int, parsed: ParsedAccount) { self.init(index: index, account: parsed.normalized, kind: parsed.kind) }
    }

    private enum Request: Sendable {
        case breaches(Target)
        case pastes(Target)
        case stealerLogs(Target)
        var target: Target { switch self { case let .breaches(t), let .pastes(t), let .stealerLogs(t): return t } }
    }

    private enum Answer: Sendable {
        case breaches(AccountLookup)
        case pastes([String])
        /// nil: the key may not search stealer logs.
        case stealerLogs([String]?)
        /// The probe's range search was refused: its account is asked again by its whole address.
        case refusedProbe
    }

    public let client: HIBPClient
    public let scheduler: CheckScheduler
    public let pastes: Bool
    public let stealerLogs: Bool
    public let now: @Sendable () -> Date
    public let kAnonymity: KAnonymityMode
    /// HIBP refused this key the range search before (`KAnonymityCache`): `.auto` starts whole.
    public let rangeRefused: Bool
    /// What the key's plan says of the range search (`SubscriptionStatus.includesKAnonymity`); nil: unknown.
    public let planIncludes: Bool?
    private let onStealerLogsRefused: @Sendable (HIBPError) -> Void
    private let onKAnonymityRefused: @Sendable (HIBPError) -> Void

    public init(client: HIBPClient, scheduler: CheckScheduler, pastes: Bool, stealerLogs: Bool = false,
                kAnonymity: KAnonymityMode = .off, rangeRefused: Bool = false, planIncludes: Bool? = nil,
                now: @escaping @Sendable () -> Date = Date.init,
                onStealerLogsRefused: @escaping @Sendable (HIBPError) -> Void = { _ in },
                onKAnonymityRefused: @escaping @Sendable (HIBPError) -> Void = { _ in }) {
        self.client = client; self.scheduler = scheduler; self.pastes = pastes; self.stealerLogs = stealerLogs
        self.kAnonymity = kAnonymity; self.rangeRefused = rangeRefused; self.planIncludes = planIncludes
        self.now = now; self.onStealerLogsRefused = onStealerLogsRefused; self.onKAnonymityRefused = onKAnonymityRefused
    }

    /// Runs every target; `onCheck` gets `(target, check)` once per target, in completion order:
    /// `check` is this run's answer alone (a good answer, or a failure with nothing else known; record
    /// it with `Account.recordChanges(_:)`). A failure keeps its message in English (the vault and
    /// `--json` keep it) and in the reader's language (`attemptErrorText`). Returns the request totals
    /// and the lookup mode; throws the error that stopped the run (401, 403) or `CancellationError`;
    /// results already delivered stay delivered.
    @discardableResult
    public func run(_ targets: [Target],
                    onCheck: @escaping @Sendable (Target, AccountCheck) async -> Void) async throws -> CheckRunReport {
        let requests = Self.requests(for: targets, pastes: pastes, stealerLogs: stealerLogs, kAnonymity: kAnonymity)
        let expected = Dictionary(requests.map { ($0.target.index, 1) }, uniquingKeysWith: +)
        let pending = PendingResults(expected: expected)
        let now = self.now
        let refused = Locked<HIBPError?>(nil)   // the first refusal of stealer logs
        let onRefused = onStealerLogsRefused
        let mode = kAnonymity
        let planExcludes = planIncludes == false
        let lookups = Lookups(useRange: (mode == .require && !planExcludes) || (mode == .auto && !rangeRefused && !planExcludes))
        let onRangeRefused = onKAnonymityRefused
        let telling = Telling()
        let unspaced = self.client
        let perform: @Sendable (Request, Duration) async throws -> Answer = { request, spacing in
            let client = unspaced.spaced(spacing)
            switch request {
            case let .breaches(t) where t.kind == .email && mode != .off:
                if lookups.useRange {
                    do {
                        let lookup = try await client.breachedAccountRange(t.account)
                        lookups.count(range: true)
                        return .breaches(lookup)
                    } catch let error as HIBPError where error.refusesKAnonymity {
                        if mode == .require {
                            if case let .noRangeSearch(status) = error { throw HIBPError.kAnonymityUnavailable(status: status) }
                            throw HIBPError.kAnonymityRefused(detail: error.refusalDetail)
                        }
                        // Told beside the requests that go on (the caller remembers it in a file, with fsync).
                        if lookups.stopUsingRange() { telling.start { onRangeRefused(error) } }
                        throw HIBPError.lookupChanged
                    }
                }
                if mode == .require {
                    throw planExcludes ? HIBPError.kAnonymityUnavailable(status: nil) : HIBPError.kAnonymityRefused(detail: "")
                }
                let lookup = try await client.breachedAccount(t.account)
                lookups.count(range: false)
                return .breaches(lookup)
            case let .breaches(t):
                let lookup = try await client.breachedAccount(t.account)
                if t.kind == .email { lookups.count(range: false) }
                return .breaches(lookup)
            case let .pastes(t): return .pastes(try await client.pastes(t.account).map { "\($0.source)/\($0.id)" })
            case let .stealerLogs(t):
                do {
                    return .stealerLogs(try await client.stealerLogs(t.account))
                } catch let error as HIBPError where error.refusesStealerLogs {
                    // Not in the key's plan, or not a domain it verified: this account goes on without them.
                    let first = refused.withLock { r -> Bool in
                        guard r == nil else { return false }
                        r = error
                        return true
                    }
                    if first { onRefused(error) }
                    return .stealerLogs(nil)
                }
            }
        }
        let deliver: @Sendable (Request, Result<Answer, HIBPError>) async -> Void = { request, result in
            let target = request.target
            if let check = await pending.add(target.index, result, at: now()) {
                await onCheck(target, check)
            }
        }
        // The refusal of the range search may still be being told (remembered in a file): wait for it
        // whether the run went through or stopped.
        let ran: Result<CheckRunReport, Error>
        do { ran = .success(try await schedule(requests, probing: mode == .auto && lookups.useRange && planIncludes == nil, lookups: lookups,
                                                perform: perform, deliver: deliver)) } catch { ran = .failure(error) }
        await telling.finish()
        var report = try ran.get()
        if lookups.whole > 0 { report.lookup = KAnonymityMode.wholeLabel }
        else if lookups.range > 0 { report.lookup = KAnonymityMode.rangeLabel }
        return report
    }

    /// The one list of requests a run of `targets` sends, in order: what `run` sends, and what
    /// `requestCount` counts (the key's rate is asked only when a run sends more than one).
    private static func requests(for targets: [Target], pastes: Bool, stealerLogs: Bool, kAnonymity: KAnonymityMode) -> [Request] {
        var requests: [Request] = []
        for t in targets {
            requests.append(.breaches(t))
            // HIBP keeps pastes and stealer logs for e-mail addresses only, and searches them by the
            // whole address: `.require` never asks for them (the command refuses the combination).
            if pastes && t.kind == .email && kAnonymity != .require { requests.append(.pastes(t)) }
            if stealerLogs && t.kind == .email && kAnonymity != .require { requests.append(.stealerLogs(t)) }
        }
        return requests
    }

    /// How many keyed requests a run of `targets` with these options sends (retries aside).
    public static func requestCount(_ targets: [Target], pastes: Bool, stealerLogs: Bool, kAnonymity: KAnonymityMode) -> Int {
        requests(for: targets, pastes: pastes, stealerLogs: stealerLogs, kAnonymity: kAnonymity).count
    }

    /// Runs the requests. `probing` (`.auto` on a key not known to be refused the range search): the
    /// first range search is a probe and the rest take their slots once it is answered, so a plan
    /// without the search costs one refused request rather than one for every request already in
    /// flight (two at 600/min and 100 ms latency). A refused probe is not retried inside its own run
    /// (that would hold the rest for a second round trip): its account goes first in the rest, whole.
    private func schedule(_ requests: [Request], probing: Bool, lookups: Lookups,
                          perform: @escaping @Sendable (Request, Duration) async throws -> Answer,
                          deliver: @escaping @Sendable (Request, Result<Answer, HIBPError>) async -> Void) async throws -> CheckRunReport {
        guard probing, requests.count > 1,
              let probe = requests.firstIndex(where: { if case let .breaches(t) = $0 { t.kind == .email } else { false } }) else {
            return try await scheduler.run(requests, spacedPerform: perform, onResult: { index, result, _ in await deliver(requests[index], result) })
        }
        var rest = requests
        let first = rest.remove(at: probe)
        let head = try await scheduler.run([first], spacedPerform: { request, spacing in
            do { return try await perform(request, spacing) } catch HIBPError.lookupChanged { return .refusedProbe }
        }, onResult: { _, result, _ in
            if case .success(.refusedProbe) = result { return }
            await deliver(first, result)
        })
        let refused = !lookups.useRange
        let second = refused ? [first] + rest : rest
        let tail = try await scheduler.run(second, spacedPerform: perform, onResult: { index, result, _ in await deliver(second[index], result) })
        return CheckRunReport(requests: head.requests + tail.requests,
                              lookupsAnswered: head.lookupsAnswered - (refused ? 1 : 0) + tail.lookupsAnswered,
                              lookupsFailed: head.lookupsFailed + tail.lookupsFailed)
    }

    /// Whether e-mail addresses still go by range search, and how many went each way. Shared by
    /// concurrent requests.
    private final class Lookups: Sendable {
        private let state: Locked<(useRange: Bool, range: Int, whole: Int)>
        init(useRange: Bool) { state = Locked((useRange, 0, 0)) }
        var useRange: Bool { state.value.useRange }
        /// Switches to the whole address; true for the first switch only.
        func stopUsingRange() -> Bool {
            state.withLock { s in
                let was = s.useRange
                s.useRange = false
                return was
            }
        }
        func count(range: Bool) { state.withLock { if range { $0.range += 1 } else { $0.whole += 1 } } }
        var range: Int { state.value.range }
        var whole: Int { state.value.whole }
    }

    /// The refusal being told (remembered and announced) while the run goes on; awaited before it returns.
    private final class Telling: Sendable {
        private let task = Locked<Task<Void, Never>?>(nil)
        /// Runs `body` on a thread of its own: it writes a file with fsync, which should not hold one of
        /// the cooperative pool's threads (one per core) while the requests go on.
        func start(_ body: @escaping @Sendable () -> Void) {
            let started = Task {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    if !DetachedThread.start({ body(); done.resume() }) { body(); done.resume() }
                }
            }
            task.withLock { $0 = started }
        }
        func finish() async { await task.value?.value }
    }

    /// Collects the answers of each account into its check: a good answer when every request
    /// succeeded, else the first failure. The caller records it with `Account.record(_:)`.
    private actor PendingResults {
        var expected: [Int: Int]
        var breaches: [Int: [String]] = [:]
        var pastes: [Int: [String]] = [:]
        var stealer: [Int: [String]] = [:]
        var failures: [Int: HIBPError] = [:]

        init(expected: [Int: Int]) { self.expected = expected }

        private func store(_ index: Int, _ result: Result<Answer, HIBPError>) {
            switch result {
            case let .success(.breaches(lookup)): breaches[index] = lookup.breachNames
            case let .success(.pastes(keys)): pastes[index] = keys
            case let .success(.stealerLogs(sites)): if let sites { stealer[index] = sites }
            case .success(.refusedProbe): break   // never delivered: the account is asked again
            case let .failure(error): if failures[index] == nil { failures[index] = error }
            }
        }

        func add(_ index: Int, _ result: Result<Answer, HIBPError>, at date: Date) -> AccountCheck? {
            store(index, result)
            let left = (expected[index] ?? 1) - 1
            expected[index] = left
            if left > 0 { return nil }
            defer { breaches[index] = nil; pastes[index] = nil; stealer[index] = nil; failures[index] = nil }
            // The failure is kept in the vault and reaches `--json` (`lastFailure.error`): English always.
            if let error = failures[index] { return .failure(Messages.english { error.message }, error: error, at: date) }
            return AccountCheck(answer: .answer(breaches: breaches[index] ?? [], pasteCount: pastes[index]?.count, at: date),
                                pastes: pastes[index], stealerLogSites: stealer[index])
        }
    }
}

extension HIBPError {
    /// A range search the key's subscription does not include: 401, or HIBP's own 403 (Cloudflare's
    /// block, with a cf-ray, is the network's doing and stops the run as it would anyway); or a server
    /// that has no range search at all.
    var refusesKAnonymity: Bool {
        switch self {
        case .unauthorized, .forbidden(nil, _), .noRangeSearch: return true
        default: return false
        }
    }

    /// HIBP's sentence in a 401/403.
    var refusalDetail: String {
        switch self {
        case let .unauthorized(detail), let .forbidden(_, detail): return detail
        default: return ""
        }
    }

    /// A stealer-log search the key's subscription does not include (401 or 403 on that endpoint).
    var refusesStealerLogs: Bool {
        switch self {
        case .unauthorized, .forbidden: return true
        default: return false
        }
    }
}

/// A target prints its position and kind, never the account it asks for.
extension AccountCheckRun.Target: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Target(\(index), \(kind.rawValue))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["index": index, "kind": kind]) }
}
