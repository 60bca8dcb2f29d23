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
    // Safe: the vault session is only used on `queue` (serial); the rest is immutable or `Locked`.

    private struct Item {
        let check: AccountCheck
        let then: @Sendable (AccountCheck) -> Void
        /// The vault account checked (nil: an account outside the vault).
        var account: Account? { check.entry?.account }
    }

    private let session: VaultSession?
    private let queue = DispatchQueue(label: "pwnvault.result-saver")
    private let pending = Locked<[Item]>([])
    /// The first save failure.
    private let failure = Locked<(any Error)?>(nil)

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

    /// Hands `check` (of its entry's account; none: an account outside the vault) over; returns at once.
    /// `then` gets it with what the vault made of it (`known`, `news`, `unlisted`, `saved`).
    func save(_ check: AccountCheck, then: @escaping @Sendable (AccountCheck) -> Void) {
        pending.withLock { $0.append(Item(check: check, then: then)) }
        queue.async { self.saveWaiting() }
    }

    /// Waits until every result handed over is saved and its `then` has run; returns the first save
    /// failure, if any (later results were still tried, as each result is).
    func drain() -> Error? {
        queue.sync {}
        return failure.value
    }

    private func saveWaiting() {
        let batch: [Item] = pending.withLock { p in defer { p = [] }; return p }
        guard !batch.isEmpty else { return }   // an earlier save took these
        var recorded = batch.map { item in
            var check = item.check
            check.known = item.account
            return check
        }
        if let session, batch.contains(where: { $0.account != nil }) {
            do {
                try session.update { payload in
                    let saved = Self.record(batch.map { ($0.account?.id, $0.check) }, in: &payload,
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
                failure.withLock { if $0 == nil { $0 = error } }
            }
        } else {
            for n in recorded.indices {
                let changes = recorded[n].known?.recordChanges(batch[n].check, isSensitive: isSensitive)
                recorded[n].news = changes?.found ?? []
                recorded[n].unlisted = changes?.unlisted ?? []
            }
        }
        for (item, r) in zip(batch, recorded) { item.then(r) }
    }

    /// Records each check in its vault account of `payload` (by id; nil or an id no longer in the
    /// vault records nothing): the one way a check's answer enters the vault, for `check`, `watch` and
    /// the ui alike. What each found first and no longer lists, and the account after it.
    static func record(_ checks: [(id: Int?, check: AccountCheck)], in payload: inout VaultPayload, unannounced: Bool,
                       isSensitive: (String) -> Bool) -> [(Account, Account.FindingChanges)?] {
        checks.map { id, check in
            guard let id, let i = payload.accounts.firstIndex(where: { $0.id == id }) else { return nil }
            let changes = payload.accounts[i].recordChanges(check, unannounced: unannounced, isSensitive: isSensitive)
            return (payload.accounts[i], changes)
        }
    }
}
