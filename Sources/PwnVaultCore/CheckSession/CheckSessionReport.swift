import FoundationEssentials

/// How a check session's run ended: every outcome, and what stopped it, if anything.
public struct CheckSessionReport: @unchecked Sendable {
    // Safe: built by the session once the run is over and only read after.
    public var outcomes: [CheckOutcome] = []
    public var interrupted = false
    /// The error that stopped the run (an `HIBPError`, usually).
    public var stop: (any Error)?
    /// How e-mail addresses were looked up: `KAnonymityMode.rangeLabel` or `.wholeLabel` (any
    /// address sent whole); nil when none was.
    public var lookup: String?
    /// A result could not be saved (the caller throws it after the report is shown).
    public var saveFailure: (any Error)?

    public init() {}

    public var checked: Int { outcomes.filter { !$0.attemptFailed }.count }
    public var failed: Int { outcomes.filter(\.attemptFailed).count }
    public var breached: Int { outcomes.filter(\.attemptBreached).count }
    public var clean: Int { outcomes.filter(\.attemptClean).count }

    /// Vault accounts with something new in this run, with what, by id: findings seen first, and
    /// findings HIBP stopped listing (`Finding.isListed` false).
    public var news: [(account: Account, findings: [Finding])] {
        outcomes.compactMap { o in
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
            unacknowledged = outcomes.contains { o in
                o.known.map { !$0.unacknowledgedFindings.isEmpty } ?? (o.result.status == .breached)
            }
        }
        return unacknowledged ? .breachesFound : .success
    }
}
