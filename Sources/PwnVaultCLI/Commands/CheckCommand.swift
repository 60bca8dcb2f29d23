import FoundationEssentials
import PwnVaultCore

/// `pwnvault check`: looks accounts up in Have I Been Pwned, as fast as the API key allows, and
/// saves each result in the vault as it arrives.
enum CheckCommand: Command {
    static let all = OptionSpec("all", help: msg("check every account in the vault that is due"))
    static let force = OptionSpec("force", help: msg("with --all: re-check accounts checked within the last day too"))
    static let pastes = OptionSpec("pastes", help: msg("also count the pastes each e-mail address appears in"))
    static let stealerLogs = OptionSpec("stealer-logs", help: msg("also ask for the websites whose info-stealer logs hold each e-mail address (needs a subscription that includes them)"))
    static let save = OptionSpec("save", help: msg("add accounts that are not in the vault, and save their results"))
    static let refresh = OptionSpec("refresh", help: msg("refresh the cached breach catalog first"))

    static let spec = CommandSpec(
        name: "check",
        summary: msg("check accounts against Have I Been Pwned and save the results"),
        usage: ["ACCOUNT|#ID... [--save] [--pastes] [--stealer-logs] [--notify[=count]]",
                "--all [--pastes] [--stealer-logs] [--force] [--rpm N] [--notify[=count]]"],
        discussion: msg("""
        Vault accounts get their result saved as soon as it arrives: a Ctrl-C or a crash midway keeps
        every finished result, and 'check --all' run again continues with what is missing, failed or
        older than a day (--force re-checks everything). An account that is not in the vault is checked
        and shown but not stored, unless --save adds it. Requests are paced at just under the API key's
        rate limit (read from HIBP, or --rpm). Progress shows on stderr when it is a terminal.
        A failed check never erases a saved result: the account keeps its last good answer, with the
        failure noted next to it ('last check failed' in list), and --all tries it again.
        When HIBP cannot be reached at all (connection refused, DNS, TLS), the run stops at the first
        such error with one message and changes nothing. A wait HIBP asks for (429) that is longer
        than 5 s is announced; one longer than --max-wait (default 60 s, or PWNVAULT_MAX_WAIT), or
        429s in a row that would hold the run up longer than that, end the run instead (status 6),
        keeping what was checked.
        Every breach, paste and stealer-log website an account is found in is remembered with the date
        it was first seen: on this run's lines, what this check found for the first time is marked NEW
        (in JSON an account's "newBreaches"; its "new" counts findings first seen by the latest check,
        as in list and show); everywhere else (list, show, the ui) it is "to acknowledge" until
        'pwnvault ack' says it was dealt with, whichever check found it. A sensitive breach is said as
        such on every line and named only in 'pwnvault reveal'. An account that is not in the vault is
        printed whole, wrapped: no 'show' can give the rest. An interrupted 'check --all --force' run again continues where it stopped.
        E-mail addresses are looked up by k-anonymity (--k-anonymity=auto, the default): only the
        first 6 hex characters of the SHA-1 of the address are sent, where the key's plan includes
        that search (as HIBP's subscription status says, or, where it does not say, as the first range
        request shows); otherwise, or where the server has no range search, the run sends addresses
        whole and says so once per key. --k-anonymity=require ends the run with status 7 instead;
        "lookup" in the JSON summary says which was used.
        Exit status: 0 no checked account has a finding to acknowledge (with --all: no
        account in the vault has), 1 at least one has, 6 none could be checked, HIBP cannot be reached
        (or its network blocked the request) or asked for too long a wait, 7 the key was refused or is
        missing (or --k-anonymity=require met a plan without the search), 8 some could not be checked
        (this wins over 1).
        """),
        options: [all, force, pastes, stealerLogs, NotifyOption.spec, save] + PacingOptions.specs + [refresh],
        positionals: 0...Int.max,
        positionalHelp: [("ACCOUNT|#ID", msg("an account (in the vault or not) or a vault id like #3"))],
        examples: [("pwnvault check --all", msg("check every account that is due, as fast as the key allows")),
                   ("pwnvault check account-exists@hibp-integration-tests.com", msg("try it without a key (HIBP's test domain)")),
                   ("pwnvault check '#3' --pastes", msg("check account #3 and its pastes now")),
                   ("pwnvault check --all --json > results.json", msg("results for a script: ids and breach names, never accounts")),
                   ("pwnvault check --all && echo nothing to deal with", msg("status 0 when every finding is acknowledged"))])

    /// One account's outcome, as printed with --json. For a vault account whose check failed,
    /// `status`, `breaches`, `pasteCount` and `checkedAt` are the saved last good answer, kept, and
    /// `error` / `lastFailure` say why this attempt failed.
    struct Row: Encodable {
        let id: Int?
        let input: String?
        let label: String?
        let status: CheckStatus
        /// The breaches the gate lets this output name (never a sensitive one).
        let breaches: [String]
        let breachCount: Int
        let sensitiveBreaches: Int
        let unnamedBreaches: Int
        /// How many findings this check found that the account was never found in before: a count, as
        /// `new` is in `list --json` and `show --json` (select with `.new > 0`).
        let new: Int
        /// The named breaches that are new (first seen by this answer), and how many are new in all.
        let newBreaches: [String]
        let newBreachCount: Int
        let newPastes: Int
        let newStealerLogSites: Int
        /// Findings (breaches, pastes, stealer-log websites) nobody acknowledged yet.
        let unacknowledged: Int
        let pasteCount: Int?
        let error: String?
        let saved: Bool
        let checkedAt: Date?
        let lastFailure: FailureRow?
        /// Findings HIBP no longer lists (`show --json` marks their breaches `"listed": false`).
        let unlisted: Int
        /// Findings not acknowledged that this answer stopped listing (news, said once), and the named
        /// breaches among them.
        let newlyUnlisted: Int
        let newlyUnlistedBreaches: [String]
    }

    struct Summary: Encodable {
        var checked = 0, breached = 0, clean = 0, failed = 0
        /// Accounts with something new in this run.
        var withNews = 0
        var interrupted = false
        var stoppedBy: String?
        /// How e-mail addresses were looked up: "k-anonymity" (only 6 hex characters of each
        /// address's SHA-1 left), "whole address" (at least one was sent whole), or absent (none was).
        var lookup: String?
    }

    struct Report: Encodable { let results: [Row]; let summary: Summary }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let all = options.all, pacing = options.pacing
        // Checks go online: libcurl (tens of milliseconds to map) loads while the vault opens.
        CurlTransport.preload()

        // Which accounts, and whether the vault is needed at all.
        let location = try context.vaultLocation()
        let vault: VaultSession? = (options.needsVault || VaultStore(location: location).exists) ? try context.openVault() : nil
        var entries = try resolveEntries(context, vault: vault, options: options)
        if options.save, let vault {
            entries = try addUnsaved(entries, to: vault, context: context)
        }
        if entries.isEmpty {
            if all {
                let n = vault?.payload.accounts.count ?? 0
                context.console.note(n == 0 ? msg("the vault is empty; add accounts with 'pwnvault add'")
                                            : msg(one: "all {1} accounts were checked within the last day; --force checks them again",
                                                  many: "all {1} accounts were checked within the last day; --force checks them again",
                                                  count: n, n))
            }
            let status = CheckRunReport().exitStatus(storedIn: vault, all: all)
            if status == .breachesFound, let vault {
                // Why the status is 1 although nothing was checked: findings that wait to be acknowledged.
                let waiting = vault.payload.accounts.filter { !$0.unacknowledgedFindings.isEmpty }.count
                context.console.note(msg(one: "status 1: {1} account has findings to acknowledge; see them with 'pwnvault list --status unacknowledged'",
                                         many: "status 1: {1} accounts have findings to acknowledge; see them with 'pwnvault list --status unacknowledged'",
                                         count: waiting, waiting))
            }
            return status
        }

        let services = HIBPServices(context)
        let key = try services.apiKey(allOnTestDomain: entries.allSatisfy(\.isOnTestDomain))
        let session = services.checkSession(key: key, vault: vault, options: .init(
            pastes: options.pastes, stealerLogs: options.stealerLogs, kAnonymity: pacing.kAnonymity, maxWait: pacing.maxWait))
        let c = context.console
        // The key's rate (--rpm, else remembered, for one account too, else asked once a day while the
        // catalog loads: on a first run the two round trips overlap), and the catalog.
        let catalog: RunCatalog
        do {
            let refresh = options.refresh, chosen = entries
            catalog = try blocking {
                try await session.prepare(chosen, givenRate: pacing.rpm, refreshCatalog: refresh,
                                          onEvent: { SessionRendering.note($0, say: { c.note($0) }) },
                                          onCatalog: { SessionRendering.render($0, console: c) })
            }
        } catch let error as HIBPError where error.isUnreachable {
            return stopped(by: error, total: entries.count, context: context)
        }
        return try runChecks(entries, session: session, catalog: catalog, context: context, options: options)
    }

    /// The run stopped before any account was checked: the summary on stdout (like a run that
    /// stopped midway), the error once on stderr.
    static func stopped(by error: HIBPError, total: Int, context: Context) -> ExitStatus {
        var summary = Summary()
        summary.stoppedBy = Messages.english { error.message }   // JSON: English whatever the language
        if context.json {
            try? context.console.json(Report(results: [], summary: summary))
        } else {
            context.console.out(summaryLine(summary, total: total, stop: error))
        }
        context.console.error(error)
        return error.exitStatus
    }

    // MARK: targets

    static func resolveEntries(_ context: Context, vault: VaultSession?, options: Options) throws -> [CheckEntry] {
        if options.all {
            guard let vault else { return [] }
            let now = context.now()
            if options.force {
                let (accounts, resumed) = try CheckSession.forced(vault, now: now)
                if let resumed {
                    context.console.note(msg("continuing the forced run started {1}: {2} of {3} already checked",
                                             StateText.time(resumed.startedAt), resumed.alreadyChecked, resumed.total))
                }
                return accounts.map(CheckEntry.init(account:))
            }
            return CheckSession.due(in: vault.payload, now: now).map(CheckEntry.init(account:))
        }
        let payload = vault?.payload ?? VaultPayload()
        let targets = try AccountResolver.resolve(options.accounts, in: payload, phones: context.phoneNumbering, allowOutside: true, disclosure: context.console.disclosure)
        return targets.map { target in
            switch target {
            case let .inVault(a): return CheckEntry(account: a)
            case let .notInVault(p, position): return CheckEntry(parsed: p, source: position.text)
            }
        }
    }

    static func addUnsaved(_ entries: [CheckEntry], to vault: VaultSession, context: Context) throws -> [CheckEntry] {
        let now = context.now()
        let unsaved = entries.compactMap(\.parsed)
        guard !unsaved.isEmpty else { return entries }
        var added: [AccountKey: Account] = [:]
        for (outcome, p) in zip(try AccountAdder.add(unsaved.map { ($0, nil) }, to: vault, now: now, phones: context.phoneNumbering,
                                                 console: context.console), unsaved) {
            if case let .added(a) = outcome { added[p.dedupKey] = a }
        }
        return entries.map { e in
            guard let p = e.parsed, let a = added[p.dedupKey] else { return e }
            context.console.note(msg("{1} added to the vault as #{2}", e.source ?? msg("account"), a.id))
            return CheckEntry(account: a)
        }
    }

    // MARK: the run

    /// Runs the session's checks, showing each result as it arrives, then the summary.
    static func runChecks(_ entries: [CheckEntry], session: CheckSession, catalog pending: RunCatalog, context: Context,
                          options: Options) throws -> ExitStatus {
        let c = context.console, all = options.all
        let progress = Progress(console: c, total: entries.count,
                                enabled: c.terminal.stderrIsTerminal && !context.json && entries.count > 1)
        let json = context.json
        let report = SessionRendering.runGuarded(session, entries, progress: progress, catalog: pending) { event in
            switch event {
            case let .result(check):
                if !json {
                    let catalog = pending.get(for: check.result) { SessionRendering.render($0, console: c) { progress.clear() } }
                    progress.print(line(for: check, catalog: catalog, console: c))
                }
                progress.advance(breached: check.attemptBreached)
            case .waiting, .notice: SessionRendering.note(event, say: progress.note)
            case .started, .saved, .finished: break
            }
        }
        let show: (RunCatalogEvent) -> Void = { SessionRendering.render($0, console: c) }
        for check in report.checks { _ = pending.get(for: check.result, report: show) }   // --json: refreshed as well
        let catalog = pending.get(report: show)
        let stop = SessionRendering.stop(report)

        var summary = Summary()
        summary.breached = report.breached
        summary.clean = report.clean
        summary.failed = report.failed
        summary.checked = summary.breached + summary.clean
        summary.withNews = report.news.count
        summary.interrupted = report.interrupted
        if let stop = stop as? HIBPError { summary.stoppedBy = Messages.english { stop.message } }   // JSON: English
        summary.lookup = report.lookup

        if !json {
            // What a clean answer covers for a phone number or a username: once per run, under the results.
            let cleanKinds = Set(report.checks.filter { $0.attemptClean }.compactMap(\.entry?.kind))
            if let coverage = CoverageText.line(for: cleanKinds) { c.out(lines: c.wrapped(coverage).map { c.styled($0, .dim) }) }
        }
        if json {
            let rows = report.checks.map { row(for: $0, catalog: catalog, console: c) }
            try c.json(Report(results: rows.sorted { ($0.id ?? 0) < ($1.id ?? 0) }, summary: summary))
        } else if entries.count > 1 || summary.interrupted || stop != nil {
            c.out(summaryLine(summary, total: entries.count, stop: stop as? HIBPError))
        }
        if let error = report.saveFailure { throw error }
        if !report.news.isEmpty { options.notify.send(report.news, catalog: catalog, console: c) }
        if let stop {
            c.error(stop)
            return stop.exitStatus
        }
        if summary.interrupted {
            c.note(msg("interrupted: {1} of {2} checked and saved; run the same command again to continue", summary.checked, entries.count))
            return .interrupted
        }
        if all, let vault = session.vault, options.force, report.failed == 0 {
            try CheckSession.finishForcedRun(vault, catalog: catalog)
        }
        return report.exitStatus(storedIn: session.vault, all: all)
    }

    static func row(for o: AccountCheck, catalog: BreachCatalog?, console c: Console) -> Row {
        let disclosed = o.known.map { c.disclosure.breaches(of: $0, catalog: catalog, includingUnlisted: false) }
            ?? c.disclosure.breaches(o.result, catalog: catalog)
        let newNames = disclosed.shown.filter(disclosed.isNew).map(\.name)
        return Row(id: o.entry?.account?.id, input: o.entry?.source, label: o.entry?.account.flatMap { c.label($0) },
                   status: o.result.status, breaches: disclosed.shown.map(\.name), breachCount: disclosed.total,
                   sensitiveBreaches: disclosed.sensitive, unnamedBreaches: disclosed.unnamed,
                   new: o.news.count, newBreaches: newNames,
                   newBreachCount: o.news.filter { $0.kind == .breach }.count,
                   newPastes: o.news.filter { $0.kind == .paste }.count,
                   newStealerLogSites: o.news.filter { $0.kind == .stealerLog }.count,
                   unacknowledged: o.known?.unacknowledgedFindings.count ?? (o.result.breachCount),
                   pasteCount: o.result.pasteCount, error: o.attemptError, saved: o.saved,
                   checkedAt: o.result.checkedAt, lastFailure: FailureRow(o.result.lastFailure),
                   unlisted: o.known?.unlistedFindings.count ?? 0, newlyUnlisted: o.unlisted.count,
                   newlyUnlistedBreaches: c.disclosure.unlistedNews(o.unlisted, catalog: catalog).shown.map(\.name))
    }

    static func line(for o: AccountCheck, catalog: BreachCatalog?, console c: Console) -> String {
        let entry = o.entry, result = o.result
        var who: String
        if let a = o.known ?? entry?.account {
            who = c.heading(a)
        } else if let p = entry?.parsed {
            who = c.disclosure.account(p, position: entry?.source ?? msg("account"))
        } else {
            who = msg("account")
        }
        if result.hasAnswer, let failure = result.lastFailure {
            // The saved answer is kept: say so, by count only (it is not news).
            return who + "  " + msg("{1}; kept the result of {2}: {3}", c.styled(msg("not checked: {1}", o.attemptErrorText ?? failure.message), .yellow),
                                    result.checkedAt.map(StateText.time) ?? msg("an earlier check"), StateText.of(o.known, result))
        }
        let newMark = c.styled(msg("NEW"), .bold)
        // What else was found, each a whole phrase: "2 pastes (1 NEW)".
        var extras: [String] = []
        let newPastes = o.news.filter { $0.kind == .paste }.count
        if let pastes = result.pasteCount, pastes > 0 {
            extras.append(newPastes > 0 ? msg(one: "{1} paste ({2} {3})", many: "{1} pastes ({2} {3})", count: pastes, pastes, newPastes, newMark)
                                        : msg(one: "{1} paste", many: "{1} pastes", count: pastes, pastes))
        }
        let sites = o.known?.knownFindings.filter { $0.kind == .stealerLog }.count ?? 0
        let newSites = o.news.filter { $0.kind == .stealerLog }.count
        if sites > 0 {
            extras.append(newSites > 0
                ? msg(one: "in info-stealer logs of {1} website ({2} {3})", many: "in info-stealer logs of {1} websites ({2} {3})",
                      count: sites, sites, newSites, newMark)
                : msg(one: "in info-stealer logs of {1} website", many: "in info-stealer logs of {1} websites", count: sites, sites))
        }
        // Found earlier, no longer listed: said once as news (the names), then counted.
        let unlistedNow = c.disclosure.unlistedParts(o.unlisted, catalog: catalog)
        let unlistedKept = o.known?.unlistedFindings.count ?? 0
        extras += unlistedNow
        switch result.status {
        case .breached:
            let disclosed = o.known.map { c.disclosure.breaches(of: $0, catalog: catalog, includingUnlisted: false) }
                ?? c.disclosure.breaches(result, catalog: catalog)
            let n = disclosed.total
            let rendering = BreachRendering(c)
            var lead = who + "  " + c.styled(msg(one: "pwned in {1} breach", many: "pwned in {1} breaches", count: n, n), .red)
            if unlistedNow.isEmpty && unlistedKept > 0 { lead = msg("{1} · {2} no longer listed", lead, unlistedKept) }
            let extrasText = extras.map { msg("; {1}", $0) }.joined()
            let notes = disclosed.countedNotes(newMark: newMark, inVault: o.known != nil)
            guard let known = o.known else {
                // A one-off answer is stored nowhere: no 'show' can give the rest, so all of it, wrapped.
                let items = rendering.named(disclosed, newMark: newMark) + notes
                return c.hanging(msg("{1}: ", lead), items.joined(separator: msg(", ")) + extrasText).joined(separator: "\n")
            }
            let newFolded: ([Breach]) -> Int = { $0.filter(disclosed.isNew).count }
            return oneLine(lead, disclosed.shown.map { rendering.title($0) + (disclosed.isNew($0) ? " " + newMark : "") }, kept: notes,
                           newAmong: { newFolded(Array(disclosed.shown.suffix($0))) }, newMark: newMark,
                           newTotal: disclosed.newCount, sensitive: disclosed.sensitive, extras: extrasText, width: c.width,
                           more: "pwnvault show '#\(known.id)'")
        case .clean where unlistedKept > 0:
            // Not green: the account was in breaches (pastes, …) HIBP no longer lists.
            var found = c.styled(msg("HIBP lists no breach for it now"), .yellow)
            if unlistedNow.isEmpty { found = msg("{1} · {2} no longer listed", found, unlistedKept) }
            return who + "  " + ([found] + extras).joined(separator: msg("; "))
        case .clean:
            let found = c.styled(msg("no breach found"), .green)
            return who + "  " + (extras.isEmpty ? found : msg("{1}, but {2}", found, extras.joined(separator: msg("; "))))
        case .error:
            return who + "  " + c.styled(msg("not checked: {1}", o.attemptErrorText ?? result.errorMessage ?? msg("error")), .yellow)
        case .neverChecked:
            return who + "  " + msg("never checked")
        }
    }

    /// One line per account on a terminal (the rest is for `show`): as many of the named `items` as fit
    /// the width, then `… N more` (with how many of those are NEW), then the `kept` notes whole: a
    /// sensitive breach is always said as such, never folded into the count of names left out. Where not
    /// even that fits, the counts and where to see them. Unwrapped and whole without a width (pipes, files).
    /// `newAmong(k)`: how many of the last `k` items are new.
    static func oneLine(_ lead: String, _ items: [String], kept: [String], newAmong: (Int) -> Int, newMark: String,
                        newTotal: Int, sensitive: Int, extras: String, width: Int?, more show: String) -> String {
        let head = msg("{1}: ", lead)
        let separator = msg(", ")
        let whole = head + (items + kept).joined(separator: separator) + extras
        guard let width, TerminalCells.width(whole) > width else { return whole }
        for shown in stride(from: items.count - 1, through: 1, by: -1) {
            let folded = items.count - shown, fresh = newAmong(folded)
            let rest = fresh > 0 ? msg("… {1} more ({2} {3})", folded, fresh, newMark) : msg("… {1} more", folded)
            let line = head + (Array(items.prefix(shown)) + [rest] + kept).joined(separator: separator)
            if TerminalCells.width(line) <= width { return line }
        }
        // Not even one name fits: the counts, the sensitive ones said as such, and where to see them,
        // wrapped at spaces rather than cut: the command to see them stays whole on the next row.
        var counts: [String] = []
        if newTotal > 0 { counts.append(msg("{1} {2}", newTotal, newMark)) }
        if sensitive > 0 { counts.append(msg(one: "{1} sensitive", many: "{1} sensitive", count: sensitive, sensitive)) }
        let short = lead + (counts.isEmpty ? "" : msg(" ({1})", counts.joined(separator: separator))) + msg("; see {1}", show)
        let lines = TerminalCells.wrap(short, to: width, then: width - 4)
        return ([lines[0]] + lines.dropFirst().map { TerminalCells.indented($0, by: 4, within: width) }).joined(separator: "\n")
    }

    /// `checked 3 of 5: 1 breached, 2 clean, 2 failed`; a run that stopped says why:
    /// `0 of 12 checked; HIBP unreachable: the connection was refused`.
    static func summaryLine(_ s: Summary, total: Int, stop: HIBPError? = nil) -> String {
        if let stop {
            let text = s.failed > 0 ? msg("{1} of {2} checked, {3} failed", s.checked, total, s.failed)
                                    : msg("{1} of {2} checked", s.checked, total)
            switch stop {
            case let .unreachable(reason): return msg("{1}; HIBP unreachable: {2}", text, reason)
            case let .waitTooLong(seconds, limit): return msg("{1}; stopped: HIBP asked to wait {2} s (the limit is {3} s)", text, seconds, limit)
            case let .heldTooLong(seconds, limit): return msg("{1}; stopped: HIBP kept refusing requests for {2} s (the limit is {3} s)", text, seconds, limit)
            default: return msg("{1}; stopped: {2}", text, stop.message)
            }
        }
        let text = s.failed > 0
            ? msg("checked {1} of {2}: {3} breached, {4} clean, {5} failed", s.checked, total, s.breached, s.clean, s.failed)
            : msg("checked {1} of {2}: {3} breached, {4} clean", s.checked, total, s.breached, s.clean)
        guard s.withNews > 0 else { return text }
        return msg(one: "{1}; news for {2} account", many: "{1}; news for {2} accounts", count: s.withNews, text, s.withNews)
    }
}
