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
    private var _results: [(id: Int, attempt: CheckAttempt)] = []
    private var _done = 0, _pwned = 0, _failed = 0
    private var _cancelled = false
    private var _stop: String?
    private var task: Task<Void, Never>?
    let ids: [Int]
    let what: String
    private let wake: ScreenWake

    private init(ids: [Int], what: String, wake: ScreenWake) {
        self.ids = ids; self.what = what; self.wake = wake
        _status = "checking \(what)…"
    }

    private func locked<T>(_ body: () -> T) -> T { lock.lock(); defer { lock.unlock() }; return body() }

    /// `body` under the lock, then the screen woken to take what changed.
    private func posting(_ body: () -> Void) {
        locked(body)
        wake.wake()
    }

    var status: String { locked { _status } }
    var isRunning: Bool { locked { _running } }
    /// Whether anything happened since the last call.
    func takeChanged() -> Bool { locked { defer { _changed = false }; return _changed } }
    func takeResults() -> [(id: Int, attempt: CheckAttempt)] { locked { defer { _results = [] }; return _results } }

    func cancel() {
        posting {
            guard _running else { return }
            _cancelled = true
            _status = "cancelling…"
            _changed = true
        }
        task?.cancel()
    }

    private func add(_ id: Int, _ attempt: CheckAttempt) {
        posting {
            _results.append((id, attempt))
            _done += 1
            if !attempt.result.hasAnswer { _failed += 1 } else if attempt.result.status == .breached { _pwned += 1 }
            _status = "checking \(what): \(_done)/\(ids.count) done, \(_pwned) pwned\(_failed > 0 ? ", \(_failed) failed" : "")  (Esc cancels)"
            _changed = true
        }
    }

    /// HIBP asked to wait (a 429), long enough to say so in the status line, as check says it on stderr.
    private func waiting(_ wait: Duration) {
        posting {
            guard _running, !_cancelled else { return }
            _status = "checking \(what): \(_done)/\(ids.count) done; " + HIBPServices.waitNote(wait, stopping: "Esc cancels")
            _changed = true
        }
    }

    private func finish(_ error: Error?) {
        posting {
            let counts = "\(_done) of \(ids.count) checked, \(_pwned) pwned\(_failed > 0 ? ", \(_failed) failed" : "")"
            if _cancelled || error is CancellationError { _status = "check cancelled: " + counts }
            else if let e = error as? UserFacingError { _status = "check stopped (\(e.message)): " + counts }
            else if error != nil { _status = "check stopped: " + counts }
            else { _status = "check done: " + counts }
            _running = false
            _changed = true
        }
    }

    /// Checks the vault accounts `ids` (in `payload`), or says why it cannot.
    static func check(context: Context, accounts: [Account], what: String, wake: ScreenWake) -> UIWork {
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
        let client = HIBPClient(baseURL: services.baseURL, apiKey: key, version: CLI.version, transport: services.transport)
        // --rpm was read and checked by UICommand (PacingOptions); here it is only taken.
        let given = context.arguments.value(PacingOptions.rpm).flatMap(Int.init)
        let now = context.now
        let maxWait = context.settings.maxWaitSeconds
        let targets = accounts.enumerated().map { AccountCheckRun.Target(index: $0.offset, account: $0.element) }
        let ids = work.ids
        // E-mail addresses by k-anonymity as `check` looks them up (PWNVAULT_K_ANONYMITY, auto by default),
        // with its remembered refusal: the ui never sends an address whole where check would not.
        let kAnonymity = context.settings.kAnonymity
        let refusals = kAnonymity == .auto ? (try? services.cacheDirectory()).map(KAnonymityCache.init(directory:)) : nil
        let refusedBefore = refusals?.isRefused(key, now: now()) ?? false
        // The key's rate the way check finds it (--rpm, the cache, else asked), on one schedule with the checks.
        let schedule = services.schedule
        if let given { schedule.learn(requestsPerMinute: given, rateFromUser: true) }
        let ask = given == nil && services.learnRememberedRate(of: key) == nil && targets.count > 1
        let cache = (try? services.cacheDirectory()).map(RateLimitCache.init(directory:))
        work.task = Task.detached {
            do {
                if ask {
                    let question = CheckScheduler(schedule: schedule, retryPolicy: RetryPolicy(maxWait: .seconds(maxWait)),
                                                  onLongWait: { work.waiting($0) })
                    do {
                        if let rpm = try await question.one({ try await client.subscriptionStatus() }).rpm {
                            schedule.learn(requestsPerMinute: rpm)
                            cache?.remember(rpm, for: key, now: now())
                        }
                    } catch let error as HIBPError where error.stopsRun {
                        throw error   // a refused key stops here, as in check
                    } catch {}        // otherwise the run goes on at the guessed rate
                }
                let scheduler = CheckScheduler(schedule: schedule, retryPolicy: RetryPolicy(maxWait: .seconds(maxWait)),
                                               onLongWait: { work.waiting($0) })
                let run = AccountCheckRun(client: client, scheduler: scheduler, pastes: false, kAnonymity: kAnonymity,
                                          rangeRefused: refusedBefore, now: now,
                                          onKAnonymityRefused: { _ in refusals?.rememberRefusal(for: key, now: now()) })
                try await run.run(targets) { target, attempt in work.add(ids[target.index], attempt) }
                work.finish(nil)
            } catch {
                work.finish(error)
            }
        }
        return work
    }
}
