import FoundationEssentials
import PwnVaultCore

/// `watch`'s full check for vault addresses on the domains the API key verified: one domain search per
/// domain answers every address on it, instead of one request per address. An organisation watching
/// thousands of addresses on its own domain spends a handful of requests.
enum DomainAnswers {
    struct Answered {
        var outcomes: [CheckRunner.Outcome] = []
        /// Ids of the accounts answered (not to be checked one by one).
        var ids: Set<Int> = []
        /// Requests sent (subscribeddomains and one per domain searched).
        var requests = 0
        /// Whether every request got its answer: every address on the key's verified domains was answered.
        var complete = true
    }

    private enum Request: Sendable { case domains; case search(String) }
    private enum Answer: Sendable { case domains([SubscribedDomain]); case search(DomainSearch) }

    /// Asks which domains the key may search (one request) and searches those that hold vault e-mail
    /// addresses, recording each answer in the vault. Any failure leaves the accounts to the ordinary
    /// per-account checks, which report it.
    /// `unannounced`: new findings are saved as waiting for delivery (VAULT_FORMAT §7).
    /// `schedule`: the run's one schedule of keyed requests (the checks that follow take their slots after these).
    static func answer(_ accounts: [Account], client: HIBPClient, schedule: RequestSchedule, session: VaultSession, now: Date,
                       unannounced: Bool = false) -> Answered {
        var answered = Answered()
        guard accounts.contains(where: { $0.kind == .email }) else { return answered }
        let scheduler = CheckScheduler(schedule: schedule, retryPolicy: RetryPolicy(maxWait: .seconds(60)))
        func send(_ requests: [Request]) -> [Answer] {
            let collected = Collector.Box<[Answer]>(initial: [])
            _ = try? blocking {
                try await scheduler.run(requests, perform: { request -> Answer in
                    switch request {
                    case .domains: return .domains(try await client.subscribedDomains())
                    case let .search(d): return .search(try await client.breachedDomain(d))
                    }
                }, onResult: { scheduled in
                    if case let .success(answer) = scheduled.result { collected.update { $0.append(answer) } }
                })
            }
            answered.requests += requests.count
            return collected.value ?? []
        }
        guard case let .domains(domains)? = send([.domains]).first else { answered.complete = false; return answered }
        let wanted = domains.map { $0.domainName.lowercased() }.filter { d in accounts.contains { DomainSearch.covers(d, $0) } }
        guard !wanted.isEmpty else { return answered }
        let searches = send(wanted.map { .search($0) })
        answered.complete = searches.count == wanted.count
        for case let .search(search) in searches {
            for account in accounts where !answered.ids.contains(account.id) {
                guard let attempt = search.attempt(for: account, at: now) else { continue }
                var known = account
                var news: [Finding] = []
                do {
                    try session.update { payload in
                        if let i = payload.accounts.firstIndex(where: { $0.id == account.id }) {
                            news = payload.accounts[i].record(attempt, unannounced: unannounced)
                            known = payload.accounts[i]
                        }
                    }
                } catch { answered.complete = false; continue }
                answered.ids.insert(account.id)
                answered.outcomes.append(CheckRunner.Outcome(entry: .init(account: account, parsed: nil, position: nil), known: known,
                                                             result: known.result, attemptError: nil, news: news, saved: true))
            }
        }
        return answered
    }
}
