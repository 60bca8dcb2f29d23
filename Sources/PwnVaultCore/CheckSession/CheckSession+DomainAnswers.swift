import FoundationEssentials

/// `watch`'s full check for vault addresses on the domains the API key verified: one domain search per
/// domain answers every address on it, instead of one request per address. An organisation watching
/// thousands of addresses on its own domain spends a handful of requests.
extension CheckSession {
    public struct DomainAnswers: @unchecked Sendable {
        // Safe: built by `answerByDomain` and only read after.
        /// Each address answered, saved.
        public var checks: [AccountCheck] = []
        /// Ids of the accounts answered (not to be checked one by one).
        public var ids: Set<Int> = []
        /// Requests sent (subscribeddomains and one per domain searched).
        public var requests = 0
        /// Whether every request got its answer: every address on the key's verified domains was answered.
        public var complete = true
        /// HIBP held the requests up longer than the run's `maxWait` (`.waitTooLong`, `.heldTooLong`): the
        /// run stops here, as any check would, instead of going on to the per-account checks.
        public var stop: HIBPError?
        public init() {}
    }

    private enum DomainRequest: Sendable { case domains; case search(String) }
    private enum DomainAnswer: Sendable { case domains([SubscribedDomain]); case search(DomainSearch) }

    /// Asks which domains the key may search (one request) and searches those that hold vault e-mail
    /// addresses, recording each answer in the vault (new findings unannounced when the options say
    /// so). Any other failure leaves the accounts to the ordinary per-account checks, which report it;
    /// a wait longer than `options.maxWait` stops the run (`stop`). Long waits are told as `waiting`
    /// events. The requests take their slots on the run's schedule (the checks that follow take theirs after).
    public func answerByDomain(_ accounts: [Account],
                               onEvent: @escaping @Sendable (CheckSessionEvent) -> Void = { _ in }) async -> DomainAnswers {
        var answered = DomainAnswers()
        guard let vault, accounts.contains(where: { $0.kind == .email }) else { return answered }
        let scheduler = scheduler(.request, onEvent: onEvent)
        let client = self.client
        func send(_ requests: [DomainRequest]) async -> [DomainAnswer] {
            let collected = Locked<[DomainAnswer]>([])
            do {
                try await scheduler.run(requests, spacedPerform: { request, spacing -> DomainAnswer in
                switch request {
                case .domains: return .domains(try await client.spaced(spacing).subscribedDomains())
                case let .search(d): return .search(try await client.spaced(spacing).breachedDomain(d))
                }
                }, onResult: { _, result, _ in
                    if case let .success(answer) = result { collected.withLock { $0.append(answer) } }
                })
            } catch let error as HIBPError {
                switch error {
                case .waitTooLong, .heldTooLong: answered.stop = error
                default: break
                }
            } catch {}
            answered.requests += requests.count
            return collected.value
        }
        let listed = await send([.domains])
        guard answered.stop == nil else { answered.complete = false; return answered }
        guard case let .domains(domains)? = listed.first else { answered.complete = false; return answered }
        let wanted = domains.map { $0.domainName.lowercased() }.filter { d in accounts.contains { DomainSearch.covers(d, $0) } }
        guard !wanted.isEmpty else { return answered }
        let searches = await send(wanted.map { .search($0) })
        answered.complete = searches.count == wanted.count && answered.stop == nil
        let at = now()
        let unannounced = options.unannounced
        for case let .search(search) in searches {
            for account in accounts where !answered.ids.contains(account.id) {
                guard var check = search.check(for: account, at: at) else { continue }
                var known = account
                var changes = Account.FindingChanges()
                do {
                    try vault.update { payload in
                        if let i = payload.accounts.firstIndex(where: { $0.id == account.id }) {
                            changes = payload.accounts[i].recordChanges(check, unannounced: unannounced)
                            known = payload.accounts[i]
                        }
                    }
                } catch { answered.complete = false; continue }
                answered.ids.insert(account.id)
                check.entry = CheckEntry(account: account)
                check.known = known
                check.news = changes.found
                check.unlisted = changes.unlisted
                check.saved = true
                answered.checks.append(check)
            }
        }
        return answered
    }

    /// One keyed request under the run's retry policy (429s waited for, 5xx and timeouts retried), in
    /// its slot of the run's schedule, paced at the key's remembered rate when there is one: for
    /// `domain` and `config api-key`, which ask once.
    public func one<T: Sendable>(_ request: @escaping @Sendable (HIBPClient) async throws -> T,
                                 onEvent: @escaping @Sendable (CheckSessionEvent) -> Void = { _ in }) async throws -> T {
        rememberedRate()
        let scheduler = scheduler(.request, onEvent: onEvent)
        let client = self.client
        return try await scheduler.one { try await request(client.spaced($0)) }
    }

    /// Records a domain search's answer for every account of `vault` it covers (`domain --save`), in one save.
    public static func record(_ search: DomainSearch, in vault: VaultSession, at date: Date) throws {
        try vault.update { payload in
            for i in payload.accounts.indices {
                if let check = search.check(for: payload.accounts[i], at: date) { payload.accounts[i].record(check) }
            }
        }
    }
}
