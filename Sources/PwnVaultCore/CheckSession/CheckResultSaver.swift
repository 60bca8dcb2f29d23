import Dispatch

/// Saves a run's check results in the vault on a serial queue of its own, so that a save (seal, write,
/// fsync, rename) never delays the next request: the scheduler starts no request while its result
/// callback runs, and the callback only hands the attempt over. Results of accounts outside the vault
/// (or without a vault) go the same way, unsaved, so every result is shown from this queue, in order.
///
/// Results that arrive while a save is under way are saved together by the next one (one `update` for
/// all of them). Each result's `then` runs, in arrival order, only after the save that holds it has
/// completed (or failed): what is shown as found is in the vault even if the process dies right after.
/// `drain` waits for every handed-over result to be saved and shown.
final class CheckResultSaver: @unchecked Sendable {
    // Safe: `pending` is only touched with `lock` held; `session` and `failure` only on `queue` (serial),
    // and by the owner after `drain`, when nothing is left on `queue`.

    /// What one attempt did to the vault: the saved account after it (its last good answer kept when
    /// the attempt failed), what it found first, and whether the save succeeded.
    struct Recorded {
        var known: Account?
        var news: [Finding] = []
        /// Findings not acknowledged that this answer no longer lists (news too, said once).
        var unlisted: [Finding] = []
        var saved = false
    }

    private struct Item {
        let account: Account?
        let attempt: CheckAttempt
        let then: @Sendable (Recorded) -> Void
    }

    private let session: VaultSession?
    private let queue = DispatchQueue(label: "pwnvault.result-saver")
    private let lock = Lock()
    private var pending: [Item] = []
    private var failure: Error?

    /// New findings are saved as waiting for delivery (`watch`, which shows them only at the end).
    private let unannounced: Bool

    /// Told the ids of the vault accounts each successful save holds, before their `then`s run.
    private let onSaved: @Sendable ([Int]) -> Void

    /// Which breach names the run's catalog marks sensitive (false when it is not at hand).
    private let isSensitive: @Sendable (String) -> Bool

    init(session: VaultSession?, unannounced: Bool = false, isSensitive: @escaping @Sendable (String) -> Bool = { _ in false },
         onSaved: @escaping @Sendable ([Int]) -> Void = { _ in }) {
        self.session = session; self.unannounced = unannounced; self.isSensitive = isSensitive; self.onSaved = onSaved
    }

    /// Hands `attempt` for `account` (nil: an account outside the vault) over; returns at once.
    func save(_ attempt: CheckAttempt, for account: Account?, then: @escaping @Sendable (Recorded) -> Void) {
        lock.withLock { pending.append(Item(account: account, attempt: attempt, then: then)) }
        queue.async { self.saveWaiting() }
    }

    /// Waits until every result handed over is saved and its `then` has run; returns the first save
    /// failure, if any (later results were still tried, as each result is).
    func drain() -> Error? {
        queue.sync {}
        return failure
    }

    private func saveWaiting() {
        let batch: [Item] = lock.withLock { defer { pending = [] }; return pending }
        guard !batch.isEmpty else { return }   // an earlier save took these
        var recorded = batch.map { Recorded(known: $0.account) }
        if let session, batch.contains(where: { $0.account != nil }) {
            do {
                try session.update { payload in
                    let saved = Self.record(batch.map { ($0.account?.id, $0.attempt) }, in: &payload,
                                            unannounced: unannounced, isSensitive: isSensitive)
                    for (n, changes) in saved.enumerated() {
                        guard let (account, changes) = changes else { continue }
                        recorded[n].news = changes.found
                        recorded[n].unlisted = changes.unlisted
                        recorded[n].known = account
                    }
                }
                for n in recorded.indices where batch[n].account != nil { recorded[n].saved = true }
                onSaved(batch.compactMap { $0.account?.id })
            } catch {
                if failure == nil { failure = error }
            }
        } else {
            for n in recorded.indices {
                let changes = recorded[n].known?.recordChanges(batch[n].attempt, isSensitive: isSensitive)
                recorded[n].news = changes?.found ?? []
                recorded[n].unlisted = changes?.unlisted ?? []
            }
        }
        for (item, r) in zip(batch, recorded) { item.then(r) }
    }

    /// Records each attempt in its vault account of `payload` (by id; nil or an id no longer in the
    /// vault records nothing): the one way a check's answer enters the vault, for `check`, `watch` and
    /// the ui alike. What each found first and no longer lists, and the account after it.
    static func record(_ attempts: [(id: Int?, attempt: CheckAttempt)], in payload: inout VaultPayload, unannounced: Bool,
                       isSensitive: (String) -> Bool) -> [(Account, Account.FindingChanges)?] {
        attempts.map { id, attempt in
            guard let id, let i = payload.accounts.firstIndex(where: { $0.id == id }) else { return nil }
            let changes = payload.accounts[i].recordChanges(attempt, unannounced: unannounced, isSensitive: isSensitive)
            return (payload.accounts[i], changes)
        }
    }
}
