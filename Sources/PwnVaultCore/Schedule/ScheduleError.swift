/// What can go wrong installing, removing or reading the scheduled watch. One line and a hint each.
public enum ScheduleError: UserFacingError, Equatable, Sendable {
    /// `--every` names no period pwnvault offers.
    case invalidPeriod(String, reason: String)
    /// There is no vault at the path the schedule would watch.
    case noVault(path: String)
    /// Neither `XDG_CONFIG_HOME` nor `HOME` is set (absolute): nowhere to put the units.
    case noConfigFolder
    /// A path cannot be written into a unit file or a crontab line (a control character in it).
    case unwritablePath(what: String, path: String)
    /// A unit of the same name exists without pwnvault's marker: it is the user's own.
    case foreignUnit(path: String)
    /// The running path of this program is unknown (`/proc/self/exe`).
    case unknownProgramPath
    /// A file could not be written, read or removed.
    case fileFailure(path: String, action: String, reason: String)
    /// `systemctl --user ARGS` failed while a user manager runs.
    case systemctlFailed(arguments: String, reason: String)
    /// No user manager runs and no session bus address outlives this login: a crontab line could not
    /// reach the keyring (`CronSessionBus`).
    case noLastingBus(reason: String)

    /// Computed when read: the reasons are kept in English (they may be written as JSON) and
    /// translated here (`reasonShown`).
    public var message: String {
        switch self {
        case let .invalidPeriod(text, reason):
            let why = Self.reasonShown(reason)
            return text.count <= 12 && text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") })
                ? msg("invalid value for '--every': '{1}' is not offered ({2})", text, why)
                : msg("invalid value for '--every': the value is not offered ({1})", why)
        case let .noVault(path): return msg("there is no vault at {1} to watch", path)
        case .noConfigFolder: return msg("cannot tell where systemd user units go: neither XDG_CONFIG_HOME nor HOME is set")
        case let .unwritablePath(what, path):
            switch what {
            case "program": return msg("the program {1} has a control character that a unit file cannot hold", path)
            case "vault path": return msg("the vault path {1} has a control character that a unit file cannot hold", path)
            default: return msg("the {1} {2} has a control character that a unit file cannot hold", what, path)
            }
        case let .foreignUnit(path): return msg("{1} exists and was not written by pwnvault; it was left as it is", Self.shown(path))
        case .unknownProgramPath: return msg("cannot tell where this pwnvault program is (/proc/self/exe is unreadable)")
        case let .fileFailure(path, action, reason):
            let (file, why) = (Self.shown(path), Self.reasonShown(reason))
            switch action {
            case "read": return msg("could not read {1}: {2}", file, why)
            case "write": return msg("could not write {1}: {2}", file, why)
            case "create the folder": return msg("could not create the folder {1}: {2}", file, why)
            case "remove": return msg("could not remove {1}: {2}", file, why)
            default: return msg("could not {1} {2}: {3}", action, file, why)
            }
        case let .systemctlFailed(arguments, reason): return msg("systemctl --user {1} failed: {2}", arguments, Self.reasonShown(reason))
        case let .noLastingBus(reason):
            return msg("no systemd user manager is running, and a cron job could not reach the keyring: {1} (this login's bus address changes at the next login)",
                       Self.reasonShown(reason))
        }
    }

    /// A reason kept in English (`phrase`, or systemctl's words for a known absence), in the reader's language.
    static func reasonShown(_ reason: String) -> String {
        let exited = "it exited with status ", noSocket = "there is no session bus socket at "
        if reason.hasPrefix(exited), let status = Int(reason.dropFirst(exited.count)) { return msg("it exited with status {1}", status) }
        if reason.hasPrefix(noSocket) { return msg("there is no session bus socket at {1}", String(reason.dropFirst(noSocket.count))) }
        let shown = Messages.shown(reason)
        return shown != reason ? shown : UserManagerAbsence.text(ofReason: reason)
    }

    /// A path as it may reach a terminal: control characters escaped.
    private static func shown(_ path: String) -> String { SettingsError.shown(path, limit: nil) }

    public var hint: String? {
        switch self {
        case .invalidPeriod: return msg("use one of {1}, e.g. 'pwnvault schedule enable --every 6h'", ScheduleInterval.offeredText)
        case .noVault: return msg("create it with 'pwnvault init', or name the vault to watch with --vault PATH")
        case .noConfigFolder: return msg("set HOME (or XDG_CONFIG_HOME to an absolute path) and run it again")
        case .unwritablePath: return msg("move or rename it to a path without control characters")
        case .foreignUnit: return msg("rename or remove that unit yourself if pwnvault may use the name, then run it again")
        case .unknownProgramPath: return msg("run pwnvault by its full path, or install it with 'make install'")
        case .fileFailure: return msg("check the folder's owner and permissions, then run it again")
        case .systemctlFailed: return msg("see 'systemctl --user status pwnvault-watch.timer' and 'journalctl --user -u pwnvault-watch'")
        case .noLastingBus:
            return msg("start a systemd user manager ('loginctl enable-linger'), or a session bus at $XDG_RUNTIME_DIR/bus (dbus-daemon --session --address=unix:path=$XDG_RUNTIME_DIR/bus), then run it again")
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidPeriod, .unwritablePath: return .usage
        case .noVault, .noConfigFolder, .foreignUnit, .unknownProgramPath, .fileFailure, .systemctlFailed: return .vault
        case .noLastingBus: return .keyring
        }
    }
}
