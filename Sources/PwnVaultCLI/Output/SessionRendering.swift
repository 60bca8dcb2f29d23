import Dispatch
import PwnVaultCore

/// How `check` and `watch` show what a `CheckSession` tells them, and run it from a synchronous command.
enum SessionRendering {
    /// Runs a session's checks under a `ScreenGuard`: Ctrl-Z and focus loss clear the progress bar
    /// (result lines wait) and `fg` or focus-in draw it again; Ctrl-C, SIGTERM and SIGHUP cancel the run,
    /// which keeps every finished result. The bar is cleared and waiting lines printed after.
    static func runGuarded(_ session: CheckSession, _ entries: [CheckEntry], progress: Progress, catalog: RunCatalog? = nil,
                           onEvent: @escaping @Sendable (CheckSessionEvent) -> Void) -> CheckRunReport {
        let ran = Locked<CheckRunReport?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let report = await session.run(entries, catalog: catalog, onEvent: onEvent)
            ran.withLock { $0 = report }
            done.signal()
        }
        let screenGuard = try? ScreenGuard.install(interrupts: .report, watchFocus: progress.isEnabled,
                                                   onHide: { progress.hide() }, onShow: { progress.show() },
                                                   onInterrupt: { _ in task.cancel() })
        done.wait()
        screenGuard?.uninstall()
        progress.clear()
        progress.flush()
        var report = ran.value ?? CheckRunReport()
        if ran.value == nil { report.interrupted = true }
        return report
    }

    /// The notes of the run (long waits, refusals the run goes on after), through `say` (the progress
    /// bar's `note` during the checks, the console's before them).
    static func note(_ event: CheckSessionEvent, say: (String) -> Void) {
        switch event {
        case let .waiting(reason, duration):
            say(HIBPServices.waitNote(duration, stopping: reason == .checks ? msg("Ctrl-C stops here and keeps the results so far")
                                                                             : msg("Ctrl-C stops here")))
        case .notice(let notice): say(text(notice))
        default: break
        }
    }

    static func text(_ notice: CheckSessionEvent.Notice) -> String {
        switch notice {
        case .rateUnknown:
            return msg("could not learn the API key's rate limit; starting at 10 requests per minute (use --rpm N to set it)")
        case let .stealerLogsRefused(error):
            return msg("stealer logs not checked: {1} (they need a plan that includes them and an address on a domain the key verified); the rest goes on", error.message)
        case let .kAnonymityRefused(error):
            if case .noRangeSearch = error {
                return msg("{1}: e-mail addresses are sent whole instead, for the rest of this run and for a day (--k-anonymity=require stops instead)", error.message)
            }
            return msg("the k-anonymity search was refused ({1}): e-mail addresses are sent whole for the rest of this run and for a day (--k-anonymity=require refuses instead)", error.message)
        }
    }

    /// A notice in a few words, for the ui's status line (the whole sentence goes above it).
    static func short(_ notice: CheckSessionEvent.Notice) -> String {
        switch notice {
        case .rateUnknown: return msg("the key's rate is unknown: 10 requests a minute")
        case .stealerLogsRefused: return msg("stealer logs not checked")
        case let .kAnonymityRefused(error):
            if case .noRangeSearch = error { return msg("sent whole: the server has no k-anonymity search") }
            return msg("sent whole: the k-anonymity search was refused")
        }
    }

    /// Says what went wrong on the way to the catalog; `beforeNotes` first (it clears the progress bar).
    static func render(_ event: RunCatalogEvent, console: Console, beforeNotes: () -> Void = {}) {
        beforeNotes()
        switch event {
        case let .loaded(load): _ = HIBPServices.reported(load, console: console)
        case let .unavailable(error): HIBPServices.noteUnavailable(error, console: console)
        case let .newerBreachUnnamed(error): console.note(msg("a breach newer than the breach catalog could not be named: {1}", error.message))
        }
    }

    /// The error that stopped a run, as the user sees it.
    static func stop(_ report: CheckRunReport) -> UserFacingError? {
        report.stop.map { $0 as? UserFacingError ?? InternalError($0) }
    }
}
