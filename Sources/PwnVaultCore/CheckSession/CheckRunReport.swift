import FoundationEssentials

/// What a run reports: each account's check, the totals, what stopped it, how e-mail addresses were
/// looked up and what it noticed on the way. A `CheckScheduler` run fills the request totals; an
/// `AccountCheckRun` adds the lookup mode; the `CheckSession` adds the checks, the stop, the notices
/// and a save failure.
public struct CheckRunReport: @unchecked Sendable {
    // Safe: built by the run once it is over and only read after.

    /// Every account's check, in the order they finished.
    public var checks: [AccountCheck] = []
    /// Requests sent in all, retries included.
    public var requests = 0
    /// Lookups (one request each, retries aside) answered, and given up after their retries.
    public var lookupsAnswered = 0
    public var lookupsFailed = 0
    public var interrupted = false
    /// The error that stopped the run (an `HIBPError`, usually).
    public var stop: (any Error)?
    /// How e-mail addresses were looked up: `KAnonymityMode.rangeLabel` or `.wholeLabel` (any
    /// address sent whole); nil when none was.
    public var lookup: String?
    /// What the run went on after and told as it went (`CheckSessionEvent.notice`), in order.
    public var notices: [CheckSessionEvent.Notice] = []
    /// A result could not be saved (the caller throws it after the report is shown).
    public var saveFailure: (any Error)?

    public init() {}

    /// Request totals of a scheduler run.
    init(requests: Int, lookupsAnswered: Int, lookupsFailed: Int) {
        self.requests = requests; self.lookupsAnswered = lookupsAnswered; self.lookupsFailed = lookupsFailed
    }

    public var checked: Int { checks.filter { !$0.attemptFailed }.count }
    public var failed: Int { checks.filter(\.attemptFailed).count }
    public var breached: Int { checks.filter(\.attemptBreached).count }
    public var clean: Int { checks.filter(\.attemptClean).count }

    /// Vault accounts with something new in this run, with what, by id: findings seen first, and
    /// findings HIBP stopped listing (`Finding.isListed` false).
    public var news: [(account: Account, findings: [Finding])] {
        checks.compactMap { o in
            let all = o.news + o.unlisted
            return o.known.flatMap { all.isEmpty ? nil : ($0, all) }
        }.sorted { $0.account.id < $1.account.id }
    }

    /// 6 when nothing could be checked (every lookup failed), 8 when some accounts failed, else 1 when
    /// any account in scope has a finding nobody acknowledged, else 0. A failure wins over 1: a script
    /// must notice that the answer is incomplete. The scope is the accounts checked (an account not in
    /// the vault cannot be acknowledged: its breaches count); with `all`, every account in the vault,
    /// due or not.
    public func exitStatus(storedIn vault: VaultSession?, all: Bool) -> ExitStatus {
        let failed = self.failed, checked = breached + clean
        if failed > 0 && checked == 0 { return .network }
        if failed > 0 { return .partial }
        let unacknowledged: Bool
        if all, let vault {
            unacknowledged = vault.payload.accounts.contains { !$0.unacknowledgedFindings.isEmpty }
        } else {
            unacknowledged = checks.contains { o in
                o.known.map { !$0.unacknowledgedFindings.isEmpty } ?? (o.result.status == .breached)
            }
        }
        return unacknowledged ? .breachesFound : .success
    }
}
