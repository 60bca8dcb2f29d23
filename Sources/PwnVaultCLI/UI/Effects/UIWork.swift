import FoundationEssentials
import PwnVaultCore

/// A check run in the background while the interface stays responsive: paced as `check --all` (the
/// key's rate, from `--rpm`, the rate cache or HIBP), cancellable. Results are only queued here, and
/// each change wakes the screen's loop (`ScreenWake`, no polling); the interface then records them in
/// the vault on its own thread (`VaultUI.tick`), so the vault is never touched from two threads.
/// Nothing here writes to the terminal.
final class UIWork: @unchecked Sendable {   // every mutable member is behind `lock`
    private let lock = Lock()
    private var _status: String
    private var _running = true
    private var _changed = true
    private var _results: [(id: Int, check: AccountCheck)] = []
    private var _done = 0, _pwned = 0, _failed = 0
    private var _cancelled = false
    private var _stop: String?
    private var _notes: [String] = []
    /// The session's notices in short, kept at the end of the status line for the rest of the run and
    /// on its closing line.
    private var _marks: [String] = []
    private var task: Task<Void, Never>?
    let ids: [Int]
    let what: String
    private let wake: ScreenWake

    private init(ids: [Int], what: String, wake: ScreenWake) {
        self.ids = ids; self.what = what; self.wake = wake
        _status = msg("checking {1}…", what)
    }

    private func locked<T>(_ body: () -> T) -> T { lock.lock(); defer { lock.unlock() }; return body() }

    /// `body` under the lock, then the screen woken to take what changed.
    private func posting(_ body: () -> Void) {
        locked(body)
        wake.wake()
    }

    var status: String { locked { ([_status] + _marks).joined(separator: "; ") } }
    var isRunning: Bool { locked { _running } }
    /// Whether anything happened since the last call.
    func takeChanged() -> Bool { locked { defer { _changed = false }; return _changed } }
    func takeResults() -> [(id: Int, check: AccountCheck)] { locked { defer { _results = [] }; return _results } }
    /// What the check session said that `check` says on stderr (a fallback, a refusal, an unknown
    /// rate), in full, since the last call.
    func takeNotes() -> [String] { locked { defer { _notes = [] }; return _notes } }

    func cancel() {
        posting {
            guard _running else { return }
            _cancelled = true
            _status = msg("cancelling…")
            _changed = true
        }
        task?.cancel()
    }

    private func add(_ id: Int, _ check: AccountCheck) {
        posting {
            _results.append((id, check))
            _done += 1
            if !check.answer.hasAnswer { _failed += 1 } else if check.answer.status == .breached { _pwned += 1 }
            _status = _failed > 0
                ? msg("checking {1}: {2}/{3} done, {4} pwned, {5} failed  (Esc cancels)", what, _done, ids.count, _pwned, _failed)
                : msg("checking {1}: {2}/{3} done, {4} pwned  (Esc cancels)", what, _done, ids.count, _pwned)
            _changed = true
        }
    }

    /// HIBP asked to wait (a 429), long enough to say so in the status line, as check says it on stderr.
    private func waiting(_ wait: Duration) {
        posting {
            guard _running, !_cancelled else { return }
            _status = msg("checking {1}: {2}/{3} done; {4}", what, _done, ids.count, HIBPServices.waitNote(wait, stopping: msg("Esc cancels")))
            _changed = true
        }
    }

    /// The session's notice: in short on the status line from here on (closing line included), and in
    /// full (`SessionRendering.text`, the words check prints) above it.
    private func noticed(_ notice: CheckSessionEvent.Notice) {
        let text = SessionRendering.text(notice), mark = SessionRendering.short(notice)
        posting {
            _notes.append(text)
            if !_marks.contains(mark) { _marks.append(mark) }
            _changed = true
        }
    }

    private func finish(_ error: Error?) {
        posting {
            let counts = _failed > 0 ? msg("{1} of {2} checked, {3} pwned, {4} failed", _done, ids.count, _pwned, _failed)
                : msg("{1} of {2} checked, {3} pwned", _done, ids.count, _pwned)
            if _cancelled || error is CancellationError { _status = msg("check cancelled: {1}", counts) }
            else if let e = error as? UserFacingError { _status = msg("check stopped ({1}): {2}", e.message, counts) }
            else if error != nil { _status = msg("check stopped: {1}", counts) }
            else { _status = msg("check done: {1}", counts) }
            _running = false
            _changed = true
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
        work.task = Task.detached {
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
        return work
    }
}
