import FoundationEssentials
import PwnVaultCore

/// `pwnvault schedule enable [--every PERIOD] | disable | status`: the unattended `watch --notify`,
/// as a systemd user timer (or, without a user manager, a crontab line to add by hand).
enum ScheduleCommand: Command {
    static let every = OptionSpec("every", value: "PERIOD",
                                  help: msg("how often enable schedules the watch: {1} (default: 1d)", ScheduleInterval.offeredText))

    static let spec = CommandSpec(
        name: "schedule",
        summary: msg("run 'watch --notify' on a schedule (a systemd user timer), stop it, or show it"),
        usage: ["enable [--every PERIOD]", "disable", "status"],
        discussion: msg("""
        enable writes pwnvault-watch.service and pwnvault-watch.timer to $XDG_CONFIG_HOME/systemd/user/
        (default ~/.config). They hold no secret: the service runs this program as
        'pwnvault watch --notify --vault PATH' with the vault's absolute path, so it always watches the same
        vault. The timer catches up a run missed while the computer was off and waits a random delay of up
        to a quarter of the period (at most an hour). When a systemd user manager runs, enable reloads it and
        starts the timer. Otherwise it installs nothing (units no manager starts would run nothing), says
        why no manager runs and how to start one, prints a crontab line that runs the same command
        ('crontab -e') with the session bus at $XDG_RUNTIME_DIR/bus, which outlives the login, and exits
        with status 8 (without that bus, enable refuses with status 5: a cron job could not reach the keyring).
        The scheduled run opens the vault through the keyring only and never asks for a passphrase: keep
        the HIBP API key in the keyring too ('pwnvault config api-key').
        disable stops the timer and removes exactly the files enable wrote; a unit of the same name that
        pwnvault did not write is never touched. status tells apart whether the schedule is installed (the
        units), whether it is active (the timer enabled in a running user manager) and how the last
        scheduled run ended (from the user manager), with the period, the command and the next run; and
        how the last watch on the vault ended, the last unattended one (no terminal: from cron or the
        timer), and when one last failed, and why (from its record beside the vault: cron runs and runs
        that could not open the vault too).
        """),
        options: [every],
        positionals: 1...1,
        positionalHelp: [("enable", msg("install the timer and start it (without a user manager: print a crontab line)")),
                         ("disable", msg("stop the timer and remove its files")),
                         ("status", msg("installed? active? the next run and the last scheduled run's result"))],
        examples: [("pwnvault schedule enable", msg("watch once a day")),
                   ("pwnvault schedule enable --every 6h --vault ~/family.vault", msg("watch another vault every 6 hours")),
                   ("pwnvault schedule status", msg("when is the next run, and how did the last one end?")),
                   ("pwnvault schedule disable", msg("stop watching on a schedule"))],
        completes: (.words(["enable", "disable", "status"]), .nothing))

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let files = try ScheduleFiles(settings: context.settings)
        let manager = SystemdUserManager(environment: context.environment)
        switch options.action {
        case .enable: return try enable(context, every: options.every, files: files, manager: manager)
        case .disable: return try disable(context, files: files, manager: manager)
        case .status: return try status(context, files: files, manager: manager)
        }
    }

    // MARK: enable

    struct EnableReport: Encodable {
        let every: String
        /// Whether the units were written and the timer enabled (only with a running user manager).
        let installed: Bool
        let service: String?
        let timer: String?
        let command: [String]
        let manager: String
        let managerHint: String?
        let timerEnabled: Bool
        let nextRun: Date?
        /// Without a user manager: the line to add with 'crontab -e'.
        let crontab: String?
    }

    private static func enable(_ context: Context, every interval: ScheduleInterval, files: ScheduleFiles,
                               manager: SystemdUserManager) throws -> ExitStatus {
        let location = try context.vaultLocation()
        guard FileManager.default.fileExists(atPath: location.path) else { throw ScheduleError.noVault(path: location.displayPath) }
        let watch = try ScheduledWatch(program: try ScheduledWatch.runningProgram(), vault: location.path, interval: interval)
        let c = context.console
        let availability = manager.availability()
        guard availability == .running else {
            // Units nothing would start are not written: status would call them installed. The crontab
            // route needs a bus address that outlives this login, or it is refused with why.
            let absence: UserManagerAbsence? = { if case let .notRunning(a) = availability { return a } else { return nil } }()
            let crontab = watch.crontabLine(busAddress: try CronSessionBus.address(environment: context.environment))
            if context.json {
                // The manager's sentence and hint are JSON values: English whatever the language.
                let (managerText, managerHint) = Messages.english { (availability.text, absence?.hint) }
                try c.json(EnableReport(every: interval.description, installed: false, service: nil, timer: nil, command: watch.arguments,
                                        manager: managerText, managerHint: managerHint, timerEnabled: false,
                                        nextRun: nil, crontab: crontab))
                return .partial
            }
            c.note(msg("nothing was installed: {1}", absence?.reason ?? msg("no systemd user manager runs")))
            if let hint = absence?.hint { c.hint(hint) }
            c.note(msg("to run 'watch --notify' every {1} from cron instead, add this line with 'crontab -e':", spoken(interval)))
            c.out(crontab)
            return .partial
        }
        try files.install(watch)
        try manager.run(["daemon-reload"])
        try manager.run(["enable", "--now", ScheduledWatch.timerName])
        let nextRun = SystemdUserManager.date(manager.properties(of: ScheduledWatch.timerName, ["NextElapseUSecRealtime"])["NextElapseUSecRealtime"])
        if context.json {
            try c.json(EnableReport(every: interval.description, installed: true, service: files.servicePath, timer: files.timerPath,
                                    command: watch.arguments, manager: Messages.english { availability.text }, managerHint: nil, timerEnabled: true,
                                    nextRun: nextRun, crontab: nil))
            return .success
        }
        c.out(msg("wrote {1}", location.display(files.servicePath)))
        c.out(msg("wrote {1}", location.display(files.timerPath)))
        c.out(nextRun.map { msg("enabled {1}: 'watch --notify' runs every {2}, next at about {3}", ScheduledWatch.timerName, spoken(interval), StateText.time($0)) }
              ?? msg("enabled {1}: 'watch --notify' runs every {2}", ScheduledWatch.timerName, spoken(interval)))
        return .success
    }

    // MARK: disable

    struct DisableReport: Encodable { let removed: [String]; let manager: String }

    private static func disable(_ context: Context, files: ScheduleFiles, manager: SystemdUserManager) throws -> ExitStatus {
        let (service, timer) = try files.owners()
        for (path, owner) in [(files.servicePath, service), (files.timerPath, timer)] where owner == .foreign {
            throw ScheduleError.foreignUnit(path: path)
        }
        let availability = manager.availability()
        let installed = service != .absent || timer != .absent
        if installed, availability == .running, timer != .absent {
            try manager.run(["disable", "--now", ScheduledWatch.timerName])
        }
        let removed = try files.remove()
        if installed, availability == .running { try manager.run(["daemon-reload"]) }

        let c = context.console
        if context.json { try c.json(DisableReport(removed: removed, manager: Messages.english { availability.text })); return .success }
        guard !removed.isEmpty else {
            c.out(msg("no schedule is installed; nothing was removed"))
            return .success
        }
        let home = try? context.vaultLocation()
        for path in removed { c.out(msg("removed {1}", home?.display(path) ?? path)) }
        if availability != .running {
            c.note(msg("no systemd user manager is running; if you added pwnvault's line to your crontab, remove it with 'crontab -e'"))
        }
        return .success
    }

    // MARK: status

    private static func status(_ context: Context, files: ScheduleFiles, manager: SystemdUserManager) throws -> ExitStatus {
        // JSON: the report's sentences (why not active, the manager's) in English whatever the language.
        var report = try context.json ? Messages.english { try ScheduleStatus.read(files: files, manager: manager) }
                                      : ScheduleStatus.read(files: files, manager: manager)
        // The last full check is in the vault: read through the keyring only, never asking.
        let vault = Result { try context.openVaultThroughKeyringOnly() }
        report.lastFullCheck = (try? vault.get())?.payload.monitor?.lastFullCheck
        let shown = try? context.vaultLocation()
        // How the last watch runs ended, from beside the vault: a run that could not open it says so there.
        let runs = shown.flatMap(WatchRunLog.read(beside:))
        report.lastWatch = runs?.lastRun
        report.lastFailedWatch = runs?.lastFailure
        report.lastUnattendedWatch = runs?.lastUnattended
        if context.json { try context.console.json(report); return .success }
        let display: (String) -> String = { shown?.display($0) ?? $0 }
        let installation: String
        switch report.installation {
        case .installed: installation = msg("installed")
        case .notInstalled: installation = msg("not installed")
        case .partial: installation = msg("partly installed")
        case .foreign: installation = msg("not pwnvault's")
        }
        var rows: [(String, String)] = [
            (msg("schedule"), report.every.map { msg("{1}, every {2}", installation, (try? ScheduleInterval(parsing: $0)).map(spoken) ?? $0) } ?? installation),
            (msg("active"), report.active ? msg("yes, the timer is enabled in the running user manager")
                                          : msg("no, {1}", report.inactiveReason ?? msg("unknown"))),
            (msg("service"), display(report.service)),
            (msg("timer"), display(report.timer)),
        ]
        if let command = report.command { rows.append((msg("runs"), Sanitizer.singleLine(command))) }
        rows.append((msg("user manager"), report.manager))
        // `manager` is `running` in the language the report was read in.
        if report.manager == SystemdUserManager.Availability.running.text, report.installation != .notInstalled {
            rows.append((msg("timer state"), report.timerState ?? msg("unknown")))
            rows.append((msg("next run"), report.nextRun.map(StateText.time) ?? msg("none scheduled")))
            rows.append((msg("last scheduled run"), report.lastRun.map(describe) ?? msg("none since the user manager started")))
        } else if report.installation != .notInstalled {
            rows.append((msg("last scheduled run"), msg("unknown, no user manager to ask (a run from cron shows as the last watch)")))
        }
        switch vault {
        case let .success(session):
            rows.append((msg("last full check"), session.payload.monitor?.lastFullCheck.map(StateText.time) ?? msg("none yet")))
            // What the vault holds now, in list's and show's word (a watch's exit status says only
            // whether that run found something new).
            let waiting = session.payload.accounts.filter { !$0.unacknowledgedFindings.isEmpty }
            let findings = waiting.reduce(0) { $0 + $1.unacknowledgedFindings.count }
            rows.append((msg("to acknowledge"), waiting.isEmpty ? msg("nothing")
                : msg(one: "{1} finding, in {2} account ('pwnvault list --status unacknowledged')",
                      many: "{1} findings, in {2} accounts ('pwnvault list --status unacknowledged')",
                      count: findings, findings, waiting.count)))
        case let .failure(error):
            rows.append((msg("last full check"), msg("unknown ({1})", (error as? KeyringOnlyError)?.reason ?? msg("the vault could not be opened"))))
        }
        rows.append((msg("last watch"), report.lastWatch.map(describe) ?? msg("none recorded")))
        if let failed = report.lastFailedWatch { rows.append((msg("last failed watch"), describe(failed))) }
        rows.append((msg("last unattended watch"), report.lastUnattendedWatch.map(describe) ?? msg("none recorded (from cron or the timer)")))
        // Aligned in terminal cells: a translated name may be wider than its count of characters.
        let names = rows.map { msg("{1}:", $0.0) }
        let w = names.map { TerminalCells.width($0) }.max()!
        // Each value wrapped under its own column (a long path on a row of its own rather than cut by the window).
        for (name, (_, v)) in zip(names, rows) { context.console.out(lines: context.console.hanging(TerminalCells.pad(name, to: w + 1), v)) }
        if report.installation == .installed, let hint = report.managerHint {
            context.console.note(msg("the units run nothing until a systemd user manager runs them"))
            context.console.hint(hint)
        }
        switch report.installation {
        case .notInstalled:
            // 'schedule enable' installs nothing without a user manager: then the way that works is cron.
            if report.manager != SystemdUserManager.Availability.running.text,
               let location = try? context.vaultLocation(), FileManager.default.fileExists(atPath: location.path),
               let program = try? ScheduledWatch.runningProgram(),
               let watch = try? ScheduledWatch(program: program, vault: location.path, interval: .daily),
               let bus = try? CronSessionBus.address(environment: context.environment) {
                context.console.note(msg("no systemd user manager runs, so 'schedule enable' installs nothing; to run 'watch --notify' once a day from cron, add this line with 'crontab -e':"))
                context.console.out(watch.crontabLine(busAddress: bus))
            } else if report.manager != SystemdUserManager.Availability.running.text {
                context.console.note(msg("no systemd user manager runs, so 'schedule enable' installs nothing; 'pwnvault schedule enable' says why, and what to add to the crontab instead"))
            } else {
                context.console.note(msg("install it with 'pwnvault schedule enable'"))
            }
        case .foreign: context.console.note(msg("a unit of that name was not written by pwnvault; pwnvault leaves it alone"))
        case .partial: context.console.note(msg("one unit is missing: 'pwnvault schedule enable' writes both again"))
        case .installed: break
        }
        return .success
    }

    /// A period in words (`6 hours`, `1 day`; 6 小时, 1 天): what `--every` takes (`6h`) is for the command line.
    private static func spoken(_ interval: ScheduleInterval) -> String {
        interval.hours % 24 == 0
            ? msg(one: "{1} day", many: "{1} days", count: interval.hours / 24, interval.hours / 24)
            : msg(one: "{1} hour", many: "{1} hours", count: interval.hours, interval.hours)
    }

    /// `DATE, exit status N (meaning)` and, for a failure, `: why`.
    private static func describe(_ run: WatchRunLog.Run) -> String {
        let when = StateText.time(run.at)
        let outcome = ExitStatus(rawValue: run.exitStatus).map { msg("{1}, exit status {2} ({3})", when, run.exitStatus, $0.watchMeaning) }
            ?? msg("{1}, exit status {2}", when, run.exitStatus)
        return run.reason.map { msg("{1}: {2}", outcome, Sanitizer.singleLine($0)) } ?? outcome
    }

    private static func describe(_ run: ScheduleStatus.LastRun) -> String {
        let outcome: String
        if let status = run.exitStatus {
            outcome = ExitStatus(rawValue: Int32(status)).map { msg("exit status {1} ({2})", status, $0.watchMeaning) }
                ?? msg("exit status {1}", status)
        } else {
            outcome = run.result
        }
        return msg("{1}, {2}", StateText.time(run.finished), outcome)
    }
}

extension ScheduleCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `schedule`'s action and options, read and checked once.
    struct Options: CommandOptions, Equatable {
        enum Action: String, Equatable, Sendable { case enable, disable, status }
        let action: Action
        /// How often the scheduled watch runs (enable only; daily unless --every says otherwise).
        let every: ScheduleInterval

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            let every = arguments.value(ScheduleCommand.every)
            guard let action = arguments.positionals.first.flatMap(Action.init(rawValue:)) else {
                throw UsageError.invalidValue(command: "schedule", option: "ACTION", reason: msg("it is enable, disable or status"))
            }
            if action != .enable, every != nil {
                throw UsageError.conflicting(command: "schedule", reason: msg("--every goes with 'schedule enable' only"))
            }
            self.action = action
            self.every = try every.map(ScheduleInterval.init(parsing:)) ?? .daily
        }
    }
}
