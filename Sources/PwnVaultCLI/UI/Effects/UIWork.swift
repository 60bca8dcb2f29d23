import FoundationEssentials
import PwnVaultCore

/// A check run in the background while the interface stays responsive: paced as `check --all` (the
/// key's rate, from `--rpm`, the rate cache or HIBP), cancellable. Results are only queued here, and
/// each change wakes the screen's loop (`ScreenWake`, no polling); the interface then records them in
/// the vault on its own thread (`VaultUI.tick`), so the vault is never touched from two threads.
/// Nothing here writes to the terminal.
final class UIWork: Sendable {
    /// What the run has to tell the screen, behind one lock.
    private struct State: Sendable {
        var status: String
        var running = true
        var changed = true
        var results: [(id: Int, check: AccountCheck)] = []
        var done = 0, pwned = 0, failed = 0
        var cancelled = false
        var notes: [String] = []
        /// The session's notices in short, kept at the end of the status line for the rest of the run
        /// and on its closing line.
        var marks: [String] = []
        var task: Task<Void, Never>?
    }

    private let state: Locked<State>
    let ids: [Int]
    let what: String
    private let wake: ScreenWake

    private init(ids: [Int], what: String, wake: ScreenWake) {
        self.ids = ids; self.what = what; self.wake = wake
        state = Locked(State(status: msg("checking {1}…", what)))
    }

    /// `body` under the lock, then the screen woken to take what changed.
    private func posting(_ body: (inout State) -> Void) {
        state.withLock(body)
        wake.wake()
    }

    var status: String { state.withLock { ([$0.status] + $0.marks).joined(separator: "; ") } }
    var isRunning: Bool { state.value.running }
    /// Whether anything happened since the last call.
    func takeChanged() -> Bool { state.withLock { s in defer { s.changed = false }; return s.changed } }
    func takeResults() -> [(id: Int, check: AccountCheck)] { state.withLock { s in defer { s.results = [] }; return s.results } }
    /// What the check session said that `check` says on stderr (a fallback, a refusal, an unknown
    /// rate), in full, since the last call.
    func takeNotes() -> [String] { state.withLock { s in defer { s.notes = [] }; return s.notes } }

    func cancel() {
        posting { s in
            guard s.running else { return }
            s.cancelled = true
            s.status = msg("cancelling…")
            s.changed = true
        }
        state.value.task?.cancel()
    }

    private func add(_ id: Int, _ check: AccountCheck) {
        let (what, total) = (self.what, ids.count)
        posting { s in
            s.results.append((id, check))
            s.done += 1
            if !check.answer.hasAnswer { s.failed += 1 } else if check.answer.status == .breached { s.pwned += 1 }
            s.status = s.failed > 0
                ? msg("checking {1}: {2}/{3} done, {4} pwned, {5} failed  (Esc cancels)", what, s.done, total, s.pwned, s.failed)
                : msg("checking {1}: {2}/{3} done, {4} pwned  (Esc cancels)", what, s.done, total, s.pwned)
            s.changed = true
        }
    }

    /// HIBP asked to wait (a 429), long enough to say so in the status line, as check says it on stderr.
    private func waiting(_ wait: Duration) {
        let (what, total) = (self.what, ids.count)
        posting { s in
            guard s.running, !s.cancelled else { return }
            s.status = msg("checking {1}: {2}/{3} done; {4}", what, s.done, total, HIBPServices.waitNote(wait, stopping: msg("Esc cancels")))
            s.changed = true
        }
    }

    /// The session's notice: in short on the status line from here on (closing line included), and in
    /// full (`SessionRendering.text`, the words check prints) above it.
    private func noticed(_ notice: CheckSessionEvent.Notice) {
        let text = SessionRendering.text(notice), mark = SessionRendering.short(notice)
        posting { s in
            s.notes.append(text)
            if !s.marks.contains(mark) { s.marks.append(mark) }
            s.changed = true
        }
    }

    private func finish(_ error: Error?) {
        let total = ids.count
        posting { s in
            let counts = s.failed > 0 ? msg("{1} of {2} checked, {3} pwned, {4} failed", s.done, total, s.pwned, s.failed)
                : msg("{1} of {2} checked, {3} pwned", s.done, total, s.pwned)
            if s.cancelled || error is CancellationError { s.status = msg("check cancelled: {1}", counts) }
            else if let e = error as? UserFacingError { s.status = msg("check stopped ({1}): {2}", e.message, counts) }
            else if error != nil { s.status = msg("check stopped: {1}", counts) }
            else { s.status = msg("check done: {1}", counts) }
            s.running = false
            s.changed = true
        }
    }

    /// Checks the vault accounts `ids` (in `payload`), or says why it cannot.
    static func check(context: Context, accounts: [Account], what: String, pacing: PacingOptions, wake: ScreenWake) -> UIWork {
        let work = UIWork(ids: accounts.map(\.id), what: what, wake: wake)
        guard !accounts.isEmpty else { work.finish(nil); return work }
        let services = HIBPServices(context)
        let key: SecretBytes
        do {
            (key, _) = try APIKey.resolve(environmentKey: context.settings.environmentAPIKey, keyring: context.keyring,
                                          allOnTestDomain: accounts.allSatisfy(\.isOnTestDomain))
        } catch {
            work.finish(error)
            return work
        }
        // The run `check` makes: the key's rate found the same way (--rpm, the cache, else asked), e-mail
        // addresses by k-anonymity as check looks them up (PWNVAULT_K_ANONYMITY, auto by default, with its
        // remembered refusal), on one schedule. No vault here: the interface records each attempt on
        // its own thread, as check saves it (`CheckSession.record`).
        let session = services.checkSession(key: key, vault: nil, options: .init(kAnonymity: pacing.kAnonymity, maxWait: pacing.maxWait))
        let given = pacing.rpm
        let entries = accounts.map(CheckEntry.init(account:))
        let task = Task.detached {
            do {
                try await session.discoverRate(given: given, requests: session.requests(for: entries)) { event in
                    switch event {
                    case let .waiting(_, wait): work.waiting(wait)
                    case let .notice(notice): work.noticed(notice)
                    default: break
                    }
                }
                let report = await session.run(entries) { event in
                    switch event {
                    case let .result(check): work.add(check.entry!.account!.id, check)
                    case let .waiting(_, wait): work.waiting(wait)
                    case let .notice(notice): work.noticed(notice)
                    default: break
                    }
                }
                work.finish(report.interrupted ? CancellationError() : report.stop)
            } catch {
                work.finish(error)
            }
        }
        work.state.withLock { $0.task = task }
        return work
    }
}
