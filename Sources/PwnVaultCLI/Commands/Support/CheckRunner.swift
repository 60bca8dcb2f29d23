import FoundationEssentials
import PwnVaultCore

/// One paced run of account checks, shared by `check` and `watch`: each result is saved in the vault
/// as it arrives (with what it found first), rows are collected for the report, and the run ends with
/// what stopped it, if anything.
struct CheckRunner {
    /// What is being checked: a vault account (saved) or an account from the command line (shown only).
    struct Entry {
        let account: Account?
        let parsed: ParsedAccount?
        let position: InputPosition?
        var kind: AccountKind { account?.kind ?? parsed!.kind }
        var isOnTestDomain: Bool { account?.isOnTestDomain ?? parsed!.isOnTestDomain }
        func target(_ index: Int) -> AccountCheckRun.Target {
            account.map { .init(index: index, account: $0) } ?? .init(index: index, parsed: parsed!)
        }
    }

    /// One account's outcome. For a vault account, `known` is the saved account after this attempt
    /// (its last good answer kept when the attempt failed); `news` what this attempt found first.
    struct Outcome: @unchecked Sendable {
        // Safe: built once (by the result callback, or by the saver once the result is saved) and only read after.
        let entry: Entry
        let known: Account?
        let result: CheckResult
        let attemptError: String?
        let news: [Finding]
        let saved: Bool
        var attemptFailed: Bool { attemptError != nil }
        var attemptBreached: Bool { attemptError == nil && result.status == .breached }
        var attemptClean: Bool { attemptError == nil && result.status == .clean }
    }

    struct Report {
        var outcomes: [Outcome] = []
        var interrupted = false
        var stop: UserFacingError?
        /// How e-mail addresses were looked up: `KAnonymityMode.rangeLabel` or `.wholeLabel` (any
        /// address sent whole); nil when none was.
        var lookup: String?
        /// A result could not be saved (the vault is thrown after the report is printed).
        var saveFailure: Error?
        var checked: Int { outcomes.filter { !$0.attemptFailed }.count }
        var failed: Int { outcomes.filter(\.attemptFailed).count }
        /// Vault accounts with something new in this run, with what, by id.
        var news: [(account: Account, findings: [Finding])] {
            outcomes.compactMap { o in o.known.flatMap { o.news.isEmpty ? nil : ($0, o.news) } }.sorted { $0.account.id < $1.account.id }
        }
    }

    let context: Context
    let client: HIBPClient
    /// The run's one schedule of keyed requests: a request made before the checks (subscription/status,
    /// a domain search) already took its slot there, so the first check keeps its spacing from it.
    let schedule: RequestSchedule
    let maxWait: Int
    let session: VaultSession?
    let pastes: Bool
    let stealerLogs: Bool
    /// New findings are saved as waiting for delivery (`watch`: VAULT_FORMAT §7, `unannounced`).
    var unannounced = false
    /// How e-mail addresses are looked up, and the key whose refusal of k-anonymity is remembered.
    var kAnonymity: KAnonymityMode = .off
    var apiKey: SecretBytes?

    /// Runs `entries`; `show` gets each outcome as it arrives (through the progress bar's lock).
    func run(_ entries: [Entry], progress: Progress, show: @escaping @Sendable (Outcome, Progress) -> Void) -> Report {
        let targets = entries.enumerated().map { $1.target($0) }
        let scheduler = CheckScheduler(schedule: schedule, retryPolicy: RetryPolicy(maxWait: .seconds(maxWait)), onLongWait: { wait in
            progress.note(HIBPServices.waitNote(wait, stopping: "Ctrl-C stops here and keeps the results so far"))
        })
        // A refusal of the range search is remembered for a day (auto starts whole meanwhile).
        let remembered: KAnonymityCache? = kAnonymity == .auto && apiKey != nil
            ? (try? HIBPServices(context).cacheDirectory()).map(KAnonymityCache.init(directory:)) : nil
        let key = apiKey
        let now = context.now
        let refusedBefore = key.map { remembered?.isRefused($0, now: now()) ?? false } ?? false
        let checkRun = AccountCheckRun(client: client, scheduler: scheduler, pastes: pastes, stealerLogs: stealerLogs,
                                       kAnonymity: kAnonymity, rangeRefused: refusedBefore,
                                       now: context.now, onStealerLogsRefused: { error in
            progress.note("stealer logs not checked: \(error.message) (they need a plan that includes them and an address on a domain the key verified); the rest goes on")
        }, onKAnonymityRefused: { error in
            if let key { remembered?.rememberRefusal(for: key, now: now()) }
            progress.note("the k-anonymity search was refused (\(error.message)): e-mail addresses are sent whole for the rest of this run and for a day (--k-anonymity=require refuses instead)")
        })
        let outcomes = Collector.Box<[Outcome]>(initial: [])
        // Vault accounts' results are saved on the saver's queue, so no request waits for the disk;
        // each outcome is shown (and counted) there, only once the save that holds it has completed.
        let saver = ResultSaver(session: session, unannounced: unannounced)
        let result: Result<CheckRunSummary, Error> = CheckCommand.runGuarded(progress: progress) {
            try await checkRun.run(targets) { target, attempt in
                let entry = entries[target.index]
                let finish: @Sendable (ResultSaver.Recorded) -> Void = { recorded in
                    let outcome = Outcome(entry: entry, known: recorded.known,
                                          result: recorded.known?.result ?? CheckResult.neverChecked.recording(attempt.result),
                                          attemptError: attempt.result.hasAnswer ? nil : attempt.result.errorMessage ?? "error",
                                          news: recorded.news, saved: recorded.saved)
                    outcomes.update { $0.append(outcome) }
                    show(outcome, progress)
                    progress.advance(breached: outcome.attemptBreached)
                }
                saver.save(attempt, for: entry.account, then: finish)
            }
        }
        // The run has ended (all checked, Ctrl-C, an HIBP error): what it handed over is saved and shown
        // before the report.
        let saveFailure = saver.drain()
        progress.clear()
        progress.flush()
        var report = Report(outcomes: outcomes.value ?? [])
        switch result {
        case let .success(summary):
            if summary.wholeAddressLookups > 0 { report.lookup = KAnonymityMode.wholeLabel }
            else if summary.kAnonymityLookups > 0 { report.lookup = KAnonymityMode.rangeLabel }
        case let .failure(error as HIBPError):
            report.stop = error
            if case .kAnonymityRefused = error { report.lookup = KAnonymityMode.rangeLabel }
        case .failure(is CancellationError): report.interrupted = true
        case let .failure(error): report.stop = InternalError(error)
        }
        report.saveFailure = saveFailure
        return report
    }
}
