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

    /// Runs every target; `onResult` gets `(target, attempt)` once per target, in completion order:
    /// `attempt` is this run's outcome alone (a good answer, or a failure with nothing else known);
    /// merge it into the saved result with `CheckResult.recording(_:)`.
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

    /// Collects the one or two answers of each account into the outcome of this attempt: a good
    /// answer (`CheckResult.answer`) when every request succeeded, else the first failure
    /// (`CheckResult.failure`). The caller records it next to what was known with `recording(_:)`.
    private actor PendingResults {
        var expected: [Int: Int]
        var breaches: [Int: [String]] = [:]
        var pastes: [Int: Int] = [:]
        var failures: [Int: String] = [:]

        init(expected: [Int: Int]) { self.expected = expected }

        func add(_ index: Int, _ result: Result<Answer, HIBPError>, at date: Date) -> CheckResult? {
            switch result {
            case let .success(.breaches(lookup)): breaches[index] = lookup.breachNames
            case let .success(.pastes(count)): pastes[index] = count
            case let .failure(error): if failures[index] == nil { failures[index] = error.message }
            }
            let left = (expected[index] ?? 1) - 1
            expected[index] = left
            if left > 0 { return nil }
            defer { breaches[index] = nil; pastes[index] = nil; failures[index] = nil }
            if let message = failures[index] { return .failure(message, at: date) }
            return .answer(breaches: breaches[index] ?? [], pasteCount: pastes[index], at: date)
        }
    }
}
