import FoundationEssentials

/// Checks accounts against HIBP as fast as the key allows: one `breachedaccount` request per
/// account (and one `pasteaccount` request per e-mail address with `pastes`, one
/// `stealerlogsbyemail` request per e-mail address with `stealerLogs`), paced by a
/// `CheckScheduler`, each account's `CheckAttempt` delivered as soon as it is complete.
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
    }

    public let client: HIBPClient
    public let scheduler: CheckScheduler
    public let pastes: Bool
    public let stealerLogs: Bool
    public let now: @Sendable () -> Date
    private let onStealerLogsRefused: @Sendable (HIBPError) -> Void

    public init(client: HIBPClient, scheduler: CheckScheduler, pastes: Bool, stealerLogs: Bool = false,
                now: @escaping @Sendable () -> Date = Date.init,
                onStealerLogsRefused: @escaping @Sendable (HIBPError) -> Void = { _ in }) {
        self.client = client; self.scheduler = scheduler; self.pastes = pastes; self.stealerLogs = stealerLogs
        self.now = now; self.onStealerLogsRefused = onStealerLogsRefused
    }

    /// Runs every target; `onResult` gets `(target, attempt)` once per target, in completion order:
    /// `attempt` is this run's outcome alone (a good answer, or a failure with nothing else known);
    /// record it with `Account.record(_:)` (or `CheckResult.recording(_:)` for its result).
    /// Throws the error that stopped the run (401, 403) or `CancellationError`; results already
    /// delivered stay delivered.
    @discardableResult
    public func run(_ targets: [Target],
                    onResult: @escaping @Sendable (Target, CheckAttempt) async -> Void) async throws -> CheckRunSummary {
        var requests: [Request] = []
        for t in targets {
            requests.append(.breaches(t))
            // HIBP keeps pastes and stealer logs for e-mail addresses only.
            if pastes && t.kind == .email { requests.append(.pastes(t)) }
            if stealerLogs && t.kind == .email { requests.append(.stealerLogs(t)) }
        }
        let expected = Dictionary(requests.map { ($0.target.index, 1) }, uniquingKeysWith: +)
        let pending = PendingResults(expected: expected)
        let client = self.client
        let now = self.now
        let refused = Flag()
        let onRefused = onStealerLogsRefused
        return try await scheduler.run(requests, perform: { request -> Answer in
            switch request {
            case let .breaches(t): return .breaches(try await client.breachedAccount(t.account))
            case let .pastes(t): return .pastes(try await client.pastes(t.account).map { "\($0.source)/\($0.id)" })
            case let .stealerLogs(t):
                do {
                    return .stealerLogs(try await client.stealerLogs(t.account))
                } catch let error as HIBPError where error.refusesStealerLogs {
                    // Not in the key's plan, or not a domain it verified: this account goes on without them.
                    if refused.set(error) { onRefused(error) }
                    return .stealerLogs(nil)
                }
            }
        }, onResult: { scheduled in
            let target = scheduled.item.target
            if let complete = await pending.add(target.index, scheduled.result, at: now()) {
                await onResult(target, complete)
            }
        })
    }

    /// The first error a concurrent callback sets.
    private final class Flag: @unchecked Sendable {
        // Safe: every access holds `lock`.
        private let lock = Lock()
        private var stored: HIBPError?
        /// True for the first error only.
        func set(_ e: HIBPError) -> Bool {
            lock.lock(); defer { lock.unlock() }
            if stored != nil { return false }
            stored = e
            return true
        }
        var value: HIBPError? { lock.lock(); defer { lock.unlock() }; return stored }
    }

    /// Collects the answers of each account into the outcome of this attempt: a good answer when
    /// every request succeeded, else the first failure. The caller records it with `Account.record(_:)`.
    private actor PendingResults {
        var expected: [Int: Int]
        var breaches: [Int: [String]] = [:]
        var pastes: [Int: [String]] = [:]
        var stealer: [Int: [String]] = [:]
        var failures: [Int: String] = [:]

        init(expected: [Int: Int]) { self.expected = expected }

        private func store(_ index: Int, _ result: Result<Answer, HIBPError>) {
            switch result {
            case let .success(.breaches(lookup)): breaches[index] = lookup.breachNames
            case let .success(.pastes(keys)): pastes[index] = keys
            case let .success(.stealerLogs(sites)): if let sites { stealer[index] = sites }
            case let .failure(error): if failures[index] == nil { failures[index] = error.message }
            }
        }

        func add(_ index: Int, _ result: Result<Answer, HIBPError>, at date: Date) -> CheckAttempt? {
            store(index, result)
            let left = (expected[index] ?? 1) - 1
            expected[index] = left
            if left > 0 { return nil }
            defer { breaches[index] = nil; pastes[index] = nil; stealer[index] = nil; failures[index] = nil }
            if let message = failures[index] { return .failure(message, at: date) }
            return CheckAttempt(result: .answer(breaches: breaches[index] ?? [], pasteCount: pastes[index]?.count, at: date),
                                pastes: pastes[index], stealerLogSites: stealer[index])
        }
    }
}

extension CheckRunSummary {
    func adding(_ other: CheckRunSummary) -> CheckRunSummary {
        CheckRunSummary(succeeded: succeeded + other.succeeded, failed: failed + other.failed, requests: requests + other.requests)
    }
}

extension HIBPError {
    /// A stealer-log search the key's subscription does not include (401 or 403 on that endpoint).
    var refusesStealerLogs: Bool {
        switch self {
        case .unauthorized, .forbidden: return true
        default: return false
        }
    }
}
