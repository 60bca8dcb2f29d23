import FoundationEssentials

/// What `schedule status` reports, three things kept apart: whether the units are installed (the
/// files, pwnvault's), whether the schedule is active (the timer enabled in a running user manager:
/// installed files alone run nothing), and how the last scheduled run ended (the manager's record of
/// the service). Everything here is read, never inferred: when the manager is not running, the run
/// times are nil and `manager` says why. Every string read from a file or from systemctl has been
/// through `Sanitizer`, in JSON too: a tampered unit file cannot reach a terminal through `jq -r`.
///
/// A field for the vault's last full check can be added beside these (it needs the vault).
public struct ScheduleStatus: Sendable, Encodable {
    public enum Installation: String, Sendable, Encodable {
        case installed
        case notInstalled = "not installed"
        /// Only one of the two units is there.
        case partial = "partly installed"
        /// A unit of the same name is the user's own.
        case foreign = "not pwnvault's"
    }

    /// The last finished run of the service, as the manager remembers it.
    public struct LastRun: Sendable, Encodable, Equatable {
        /// When it ended.
        public let finished: Date
        /// Its exit status (see `pwnvault help exit-status`), when it exited.
        public let exitStatus: Int?
        /// systemd's word for it: success, exit-code, timeout, signal, …
        public let result: String
    }

    public let installation: Installation
    /// The period, as `--every` takes it.
    public let every: String?
    public let service: String
    public let timer: String
    /// `ExecStart=` as written in the service.
    public let command: String?
    /// `running`, or `not running: REASON` (pwnvault's sentence, never systemctl's words).
    public let manager: String
    /// What would make a user manager run, when none does.
    public let managerHint: String?
    /// Whether the schedule runs: installed, the timer active and enabled, the manager running.
    public let active: Bool
    /// Why it is not active, in one line; nil when it is.
    public let inactiveReason: String?
    /// The timer's state (`active, enabled`), when the manager runs.
    public let timerState: String?
    public let nextRun: Date?
    public let lastRun: LastRun?
    /// When `watch` (or a finished `check --all --force`) last checked every account; read from the
    /// vault through the keyring by the caller, nil when unknown.
    public var lastFullCheck: Date?
    /// How the last `watch` on the vault ended, and the last one that failed (`WatchRunLog`, read
    /// beside the vault by the caller); nil when none was recorded.
    public var lastWatch: WatchRunLog.Run?
    public var lastFailedWatch: WatchRunLog.Run?
    /// How the last watch with no terminal (from cron or the timer) ended.
    public var lastUnattendedWatch: WatchRunLog.Run?

    /// Reads the files, and asks `manager` when it runs. Its sentences are in the reader's language:
    /// for `--json`, read it inside `Messages.english`.
    public static func read(files: ScheduleFiles, manager: SystemdUserManager) throws -> ScheduleStatus {
        let (service, timer) = try files.owners()
        let installation: Installation
        switch (service, timer) {
        case (.foreign, _), (_, .foreign): installation = .foreign
        case (.absent, .absent): installation = .notInstalled
        case (.pwnvault, .pwnvault): installation = .installed
        default: installation = .partial
        }
        var every: ScheduleInterval?
        if case let .pwnvault(e) = timer { every = e } else if case let .pwnvault(e) = service { every = e }

        var timerState: String?, nextRun: Date?, lastRun: LastRun?, timerRuns = false
        let availability = manager.availability()
        if availability == .running, installation != .notInstalled {
            let t = manager.properties(of: ScheduledWatch.timerName,
                                       ["ActiveState", "UnitFileState", "NextElapseUSecRealtime", "LoadState"])
                .mapValues(Sanitizer.singleLine)
            if let active = t["ActiveState"], !active.isEmpty {
                timerState = [active, t["UnitFileState"]].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: ", ")
            }
            timerRuns = t["ActiveState"] == "active" && t["UnitFileState"]?.hasPrefix("enabled") == true
            nextRun = SystemdUserManager.date(t["NextElapseUSecRealtime"])
            let s = manager.properties(of: ScheduledWatch.serviceName,
                                       ["Result", "ExecMainStatus", "ExecMainExitTimestamp", "ExecMainCode"])
            if let finished = SystemdUserManager.date(s["ExecMainExitTimestamp"]) {
                // ExecMainCode 1 (CLD_EXITED): ExecMainStatus is an exit status; otherwise a signal number.
                let exited = s["ExecMainCode"] == "1"
                lastRun = LastRun(finished: finished, exitStatus: exited ? s["ExecMainStatus"].flatMap { Int($0) } : nil,
                                  result: s["Result"].map(Sanitizer.singleLine).flatMap { $0.isEmpty ? nil : $0 } ?? "unknown")
            }
        }
        var hint: String?, inactiveReason: String?
        switch (installation, availability) {
        case (.notInstalled, _): inactiveReason = msg("nothing is installed")
        case (.foreign, _): inactiveReason = msg("a unit of that name is not pwnvault's")
        case (.partial, _): inactiveReason = msg("one of the two units is missing")
        case let (.installed, .notRunning(absence)):
            inactiveReason = msg("the units are installed, but {1}", absence.reason)
            hint = absence.hint
        case (.installed, .running):
            if !timerRuns {
                inactiveReason = timerState.map { msg("the timer is not enabled and started ({1})", $0) }
                    ?? msg("the timer is not enabled and started (state unknown)")
            }
        }
        if case let .notRunning(absence) = availability { hint = absence.hint }
        return ScheduleStatus(installation: installation, every: every?.description, service: files.servicePath,
                              timer: files.timerPath, command: files.serviceCommand().map(Sanitizer.singleLine),
                              manager: availability.text, managerHint: hint, active: inactiveReason == nil,
                              inactiveReason: inactiveReason, timerState: timerState, nextRun: nextRun, lastRun: lastRun)
    }
}
