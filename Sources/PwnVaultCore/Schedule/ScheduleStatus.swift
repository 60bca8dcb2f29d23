import FoundationEssentials

/// What `schedule status` reports: whether the units are installed and pwnvault's, the period and
/// command they hold, and what the user manager says of the timer (next run) and the service (the
/// last run's result). Everything here is read, never inferred: when the manager is not running,
/// the run times are nil and `manager` says why.
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
    /// `running`, or `not running: REASON`.
    public let manager: String
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

    /// Reads the files, and asks `manager` when it runs.
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

        var timerState: String?, nextRun: Date?, lastRun: LastRun?
        let availability = manager.availability()
        if availability == .running, installation != .notInstalled {
            let t = manager.properties(of: ScheduledWatch.timerName,
                                       ["ActiveState", "UnitFileState", "NextElapseUSecRealtime", "LoadState"])
            if let active = t["ActiveState"], !active.isEmpty {
                timerState = [active, t["UnitFileState"]].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: ", ")
            }
            nextRun = SystemdUserManager.date(t["NextElapseUSecRealtime"])
            let s = manager.properties(of: ScheduledWatch.serviceName,
                                       ["Result", "ExecMainStatus", "ExecMainExitTimestamp", "ExecMainCode"])
            if let finished = SystemdUserManager.date(s["ExecMainExitTimestamp"]) {
                // ExecMainCode 1 (CLD_EXITED): ExecMainStatus is an exit status; otherwise a signal number.
                let exited = s["ExecMainCode"] == "1"
                lastRun = LastRun(finished: finished, exitStatus: exited ? s["ExecMainStatus"].flatMap { Int($0) } : nil,
                                  result: s["Result"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown")
            }
        }
        let managerText: String
        switch availability {
        case .running: managerText = "running"
        case let .notRunning(reason): managerText = "not running: " + reason
        }
        return ScheduleStatus(installation: installation, every: every?.description, service: files.servicePath,
                              timer: files.timerPath, command: files.serviceCommand(), manager: managerText,
                              timerState: timerState, nextRun: nextRun, lastRun: lastRun)
    }
}
