import FoundationEssentials
import PwnVaultCore

/// `pwnvault watch`: the unattended run, for a timer or cron. Never asks for anything; costs one
/// request (the public catalog) when nothing changed; says something only when there is news.
enum WatchCommand: Command {
    static let defaultFullEvery = 7

    static let fullEvery = OptionSpec("full-every", value: "DAYS", help: msg("check every account at least this often (default 7)"))
    static let pastes = OptionSpec("pastes", help: msg("in full checks, also ask for pastes"))
    static let stealerLogs = OptionSpec("stealer-logs", help: msg("in full checks, also ask for info-stealer logs (needs a subscription that includes them)"))

    static let spec = CommandSpec(
        name: "watch",
        summary: msg("the unattended check: quiet unless something new is found (for a timer or cron)"),
        usage: ["[--full-every DAYS] [--notify[=count]] [--pastes] [--stealer-logs]"],
        discussion: msg("""
        Opens the vault through the keyring only and never prompts: with the keyring locked or missing
        it exits with status 5 and one line. It fetches the public breach catalog (one request, no key)
        and compares it, breach by breach, with the catalog the vault remembers from the last run. A
        breach that is new (whatever its AddedDate), has a larger PwnCount, is no longer sensitive,
        retired or a spam list, or whose data classes widened, is checked for the accounts it can hold:
        e-mail addresses when its data classes include "Email addresses", usernames with "Usernames",
        phone numbers with "Phone numbers" (a breach without data classes: every account). A sensitive
        breach is checked only for addresses a domain search of the key's verified domains answers
        (HIBP returns it to nobody else); a retired breach, a spam list, a removed breach, and a change
        without a larger PwnCount (a description, IsVerified) check nobody. Every account is checked
        when the last full check is older than --full-every days (default 7: what the catalog cannot
        show, such as pastes, spam lists and breaches reloaded without a larger PwnCount), or when a
        change can concern every account; accounts never checked or whose latest check failed are
        checked by every run. Paced like 'check --all'.
        Prints nothing when nothing is new (cron mails only news); otherwise one line per account with
        news. News is delivered once: what a run found but could not print (it was killed) or, with
        --notify, could not notify (no notification service answered) is reported by the next run.
        Each run records how it ended (time, exit status, the error's line) beside the vault, in
        VAULT.watch, for 'schedule status'. Exit status: 0 nothing new, 1 something new, 5 the keyring cannot open the vault,
        6 HIBP unreachable, 7 the key was refused or is missing, 8 some accounts could not be checked.
        """),
        options: [fullEvery,
                  NotifyOption.spec,
                  pastes,
                  stealerLogs]
            + PacingOptions.specs,
        examples: [("pwnvault watch --notify", msg("what a daily timer runs ('pwnvault schedule enable' sets it up)")),
                   ("pwnvault watch --full-every 1", msg("check every account every day"))],
        unattended: true)

    struct NewsRow: Encodable {
        let id: Int
        let label: String?
        /// Named (not sensitive) breaches first seen in this run.
        let breaches: [String]
        let sensitiveBreaches: Int
        let unnamedBreaches: Int
        let pastes: Int
        let stealerLogSites: Int
        /// Findings found earlier that HIBP stopped listing in this run (news too), and the named
        /// (not sensitive) breaches among them.
        let unlisted: Int
        let unlistedBreaches: [String]
    }

    struct Report: Encodable {
        /// Whether every account was checked (the catalog changed, or the last full check was too old).
        let fullCheck: Bool
        let reason: String
        let checked: Int
        let failed: Int
        let news: [NewsRow]
    }

    /// Runs the watch and records how it ended beside the vault (`WatchRunLog`), for `schedule status`:
    /// an unattended run that fails is otherwise seen by nobody.
    static func run(_ context: Context) throws -> ExitStatus {
        let location = try? context.vaultLocation()
        var failure: String?
        do {
            let status = try watch(context, failure: &failure)
            if let location { WatchRunLog.record(status, reason: failure, at: context.now(), beside: location) }
            return status
        } catch {
            let shown = error as? UserFacingError
            if let location {
                // The log is read by 'schedule status' and kept: English whatever the language. A usage
                // error holds its reason in the reader's language: the options are read again in English.
                let reason = Messages.english { () -> String in
                    if error is UsageError, case let .failure(english as UserFacingError) = Result(catching: { try Options(context) }) {
                        return english.message
                    }
                    return shown?.message ?? msg("an internal error")
                }
                WatchRunLog.record(shown?.exitStatus ?? InternalError(error).exitStatus, reason: reason,
                                   at: context.now(), beside: location)
            }
            throw error
        }
    }

    /// The watch itself; `failure` is set to the line that explains a failed status it returns.
    private static func watch(_ context: Context, failure: inout String?) throws -> ExitStatus {
        let options = try Options(context)
        let fullEvery = options.fullEvery, pacing = options.pacing, notify = options.notify
        let rpm = pacing.rpm
        let maxWait = pacing.maxWait

        let session = try context.openVaultThroughKeyringOnly()
        let accounts = session.payload.accounts
        if accounts.isEmpty { return .success }

        let services = HIBPServices(context)
        let catalog = try services.freshCatalog()
        let now = context.now()
        let plan = CheckSession.WatchPlan(accounts: accounts, monitor: session.payload.monitor, catalog: catalog, now: now,
                                          fullEvery: fullEvery)
        let full = plan.isFull, triggered = plan.triggered
        let chosen = plan.chosen, domainOnly = plan.domainOnly
        if plan.nothingToCheck {
            // Nothing the catalog's changes can concern: remember the catalog as it is now.
            try CheckSession.rememberCatalog(catalog, in: session)
            // News an earlier run saved and did not deliver (it was killed, or could not notify).
            let news = CheckSession.waitingNews(in: session)
            if context.json {
                try context.console.json(Report(fullCheck: false, reason: Messages.english { msg("nothing changed") }, checked: 0, failed: 0,
                                                news: news.map { newsRow($0.account, $0.findings, catalog: catalog, console: context.console) }))
            } else {
                show(news, catalog: catalog, console: context.console)
            }
            try announce(news, notify: notify, catalog: catalog, session: session, console: context.console)
            return news.isEmpty ? .success : .breachesFound
        }
        let sweep = plan.sweep

        let key = try services.apiKey(allOnTestDomain: (chosen + domainOnly).allSatisfy(\.isOnTestDomain))
        let c = context.console
        // Findings are saved as they arrive but shown at the end: each waits in the vault until it is.
        let checks = services.checkSession(key: key, vault: session, options: .init(
            pastes: full && options.pastes, stealerLogs: full && options.stealerLogs, kAnonymity: pacing.kAnonymity,
            maxWait: maxWait, unannounced: true))
        // A full check sends at least two keyed requests (the domains, then the accounts): know the rate.
        // Every keyed request of the run (the rate question, domain searches, checks) shares one schedule.
        _ = try blocking { try await checks.discoverRate(given: rpm, requests: sweep ? max(2, chosen.count) : chosen.count) { event in
            SessionRendering.note(event, say: { c.note($0) })
        } }
        // Addresses on the key's verified domains: one domain search each domain, not one per address.
        // (Pastes and stealer logs are not in a domain search: wanting them means asking per address.)
        var byDomain = CheckSession.DomainAnswers()
        // A check the catalog asked for wants breaches only: a domain search answers it.
        if sweep && !(full && (options.pastes || options.stealerLogs)) {
            let accounts = chosen + domainOnly
            byDomain = try blocking { await checks.answerByDomain(accounts) { event in
                SessionRendering.note(event, say: { c.note($0) })
            } }
        }
        // A domain search held up longer than --max-wait stops the run as a check would: no account is
        // asked one by one after it (what the searches answered is saved).
        let entries = byDomain.stop != nil ? [] : chosen.filter { !byDomain.ids.contains($0.id) }.map(CheckEntry.init(account:))
        let progress = Progress(console: c, total: entries.count, enabled: false)
        var report = entries.isEmpty ? CheckRunReport()
            : SessionRendering.runGuarded(checks, entries, progress: progress, catalog: checks.readyCatalog(catalog, fetched: true)) { event in
                SessionRendering.note(event, say: progress.note)
            }
        if let error = report.saveFailure { throw error }
        report.checks = byDomain.checks + report.checks
        if let stop = byDomain.stop { report.stop = stop }
        let stop = SessionRendering.stop(report)

        // The catalog is remembered once every account it can concern was asked: a stopped or interrupted
        // run asks again next time; an account whose check failed is asked again by every run until answered.
        let allAsked = stop == nil && !report.interrupted && (domainOnly.isEmpty || byDomain.complete)
        if full && allAsked && report.failed == 0 {
            try CheckSession.recordFullCheck(in: session, at: now, catalog: catalog)
        } else if !full && (allAsked || !triggered) {
            try CheckSession.rememberCatalog(catalog, in: session)
        }
        // What this run found and what an earlier run saved without delivering it, from the vault.
        let news = CheckSession.waitingNews(in: session)
        if context.json {
            // A JSON value: English whatever the language.
            let concerned = plan.concerned.count + domainOnly.count
            let why = Messages.english {
                plan.full.map(text(of:)) ?? (triggered
                    ? msg(one: "the breach catalog changed in a way that can concern {1} account",
                          many: "the breach catalog changed in a way that can concern {1} accounts", count: concerned, concerned)
                    : msg("accounts not checked yet"))
            }
            try c.json(Report(fullCheck: full, reason: why, checked: report.checked,
                              failed: report.failed, news: news.map { newsRow($0.account, $0.findings, catalog: catalog, console: c) }))
        } else {
            show(news, catalog: catalog, console: c)
        }
        try announce(news, notify: notify, catalog: catalog, session: session, console: c)
        for o in report.checks where o.attemptFailed {
            c.note(msg("#{1} not checked: {2}", o.entry?.account?.id ?? 0, o.attemptErrorText ?? msg("error")))
        }
        if let stop {
            c.error(stop)
            failure = Messages.english { c.hintThatApplies(stop).message }
            return stop.exitStatus
        }
        // `failure` goes to the run log beside the vault: English whatever the language.
        if report.interrupted { failure = Messages.english { msg("interrupted") }; return .interrupted }
        if report.failed > 0 {
            let firstError = report.checks.first { $0.attemptFailed }?.attemptError
            failure = Messages.english {
                report.checked == 0 ? msg("no account could be checked ({1})", firstError ?? msg("error"))
                    : msg(one: "{1} account could not be checked", many: "{1} accounts could not be checked", count: report.failed, report.failed)
            }
            return report.checked == 0 ? .network : .partial
        }
        return news.isEmpty ? .success : .breachesFound
    }

    /// Why every account is checked, as the JSON report says it (called inside `Messages.english`).
    static func text(of reason: CheckSession.WatchPlan.FullReason) -> String {
        switch reason {
        case .noFullCheckYet: return msg("no full check yet")
        case .unknownCatalog: return msg("the breach catalog the last full check saw is not known")
        case let .olderThan(days): return msg(one: "the last full check is {1} day old or more", many: "the last full check is {1} days old or more", count: days, days)
        case .changeConcernsEveryAccount: return msg("the breach catalog changed in a way that can concern every account")
        }
    }

    static func show(_ news: [(account: Account, findings: [Finding])], catalog: BreachCatalog?, console c: Console) {
        guard !news.isEmpty else { return }
        for item in news {
            // NEW for what was found first; a change that is only "no longer listed" is news without it.
            let mark = item.findings.contains(where: \.isListed) ? "  " + c.styled(msg("NEW"), .red) : ""
            c.out(msg("{1}: ", c.heading(item.account) + mark)
                  + c.disclosure.newsParts(item.findings, catalog: catalog).joined(separator: msg("; ")))
        }
        c.out(msg("details and what to do: {1}; when dealt with: {2}", "pwnvault show '#ID'", "pwnvault ack '#ID'"))
    }

    /// After `news` was printed: notifies it (--notify) and marks it delivered, so the next run does not
    /// repeat it. A notification that does not go out leaves it waiting for the next run.
    static func announce(_ news: [(account: Account, findings: [Finding])], notify: NotifyOption, catalog: BreachCatalog?,
                         session: VaultSession, console c: Console) throws {
        guard !news.isEmpty else { return }
        guard notify.send(news, catalog: catalog, console: c, unsent: msg("the next 'watch' reports it again")) else { return }
        try CheckSession.markAnnounced(news, in: session)
    }

    static func newsRow(_ a: Account, _ findings: [Finding], catalog: BreachCatalog?, console c: Console) -> NewsRow {
        let d = c.disclosure.news(findings, catalog: catalog)
        return NewsRow(id: a.id, label: c.label(a), breaches: d.shown.map(\.name), sensitiveBreaches: d.sensitive,
                       unnamedBreaches: d.unnamed, pastes: findings.filter { $0.kind == .paste && $0.isListed }.count,
                       stealerLogSites: findings.filter { $0.kind == .stealerLog && $0.isListed }.count,
                       unlisted: findings.filter { !$0.isListed }.count,
                       unlistedBreaches: c.disclosure.unlistedNews(findings, catalog: catalog).shown.map(\.name))
    }
}
