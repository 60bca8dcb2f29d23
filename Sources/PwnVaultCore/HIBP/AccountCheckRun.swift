import Foundation

/// Checks accounts against HIBP as fast as the key allows: one `breachedaccount` request per
/// account (and one `pasteaccount` request per e-mail address with `pastes`), paced by a
/// `CheckScheduler`, each account's `CheckResult` delivered as soon as it is complete.
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
        var target: Target { switch self { case let .breaches(t), let .pastes(t): return t } }
    }

    private enum Answer: Sendable {
        case breaches(AccountLookup)
        case pastes(Int)
    }

    public let client: HIBPClient
    public let scheduler: CheckScheduler
    public let pastes: Bool
    public let now: @Sendable () -> Date

    public init(client: HIBPClient, scheduler: CheckScheduler, pastes: Bool, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client; self.scheduler = scheduler; self.pastes = pastes; self.now = now
    }

    /// Runs every target; `onResult` gets `(target, result)` once per target, in completion order.
    /// Throws the error that stopped the run (401, 403) or `CancellationError`; results already
    /// delivered stay delivered.
    @discardableResult
    public func run(_ targets: [Target],
                    onResult: @escaping @Sendable (Target, CheckResult) async -> Void) async throws -> CheckRunSummary {
        var requests: [Request] = []
        for t in targets {
            requests.append(.breaches(t))
            // HIBP keeps pastes for e-mail addresses only.
            if pastes && t.kind == .email { requests.append(.pastes(t)) }
        }
        let expected = Dictionary(requests.map { ($0.target.index, 1) }, uniquingKeysWith: +)
        let pending = PendingResults(expected: expected)
        let client = self.client
        let now = self.now
        return try await scheduler.run(requests, perform: { request -> Answer in
            switch request {
            case let .breaches(t): return .breaches(try await client.breachedAccount(t.account))
            case let .pastes(t): return .pastes(try await client.pastes(t.account).count)
            }
        }, onResult: { scheduled in
            let target = scheduled.item.target
            if let complete = await pending.add(target.index, scheduled.result, at: now()) {
                await onResult(target, complete)
            }
        })
    }

    /// Collects the one or two answers of each account into one `CheckResult`.
    private actor PendingResults {
        var expected: [Int: Int]
        var partial: [Int: CheckResult] = [:]

        init(expected: [Int: Int]) { self.expected = expected }

        func add(_ index: Int, _ result: Result<Answer, HIBPError>, at date: Date) -> CheckResult? {
            var r = partial[index] ?? CheckResult(status: .clean, checkedAt: date)
            switch result {
            case let .success(.breaches(lookup)):
                if r.status != .error {
                    r.breaches = lookup.breachNames
                    r.status = lookup.breachNames.isEmpty ? .clean : .breached
                }
            case let .success(.pastes(count)):
                r.pasteCount = count
            case let .failure(error):
                r.status = .error
                r.breaches = []
                r.errorMessage = error.message
            }
            r.checkedAt = date
            let left = (expected[index] ?? 1) - 1
            expected[index] = left
            if left > 0 { partial[index] = r; return nil }
            partial[index] = nil
            return r
        }
    }
}
