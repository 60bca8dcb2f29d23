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

    public var message: String {
        switch self {
        case let .invalidPeriod(text, reason):
            let shown = text.count <= 12 && text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") })
                ? "'\(text)'" : "the value"
            return "invalid value for '--every': \(shown) is not offered (\(reason))"
        case let .noVault(path): return "there is no vault at \(path) to watch"
        case .noConfigFolder: return "cannot tell where systemd user units go: neither XDG_CONFIG_HOME nor HOME is set"
        case let .unwritablePath(what, path): return "the \(what) \(path) has a control character that a unit file cannot hold"
        case let .foreignUnit(path): return "\(Self.shown(path)) exists and was not written by pwnvault; it was left as it is"
        case .unknownProgramPath: return "cannot tell where this pwnvault program is (/proc/self/exe is unreadable)"
        case let .fileFailure(path, action, reason): return "could not \(action) \(Self.shown(path)): \(reason)"
        case let .systemctlFailed(arguments, reason): return "systemctl --user \(arguments) failed: \(reason)"
        case let .noLastingBus(reason):
            return "no systemd user manager is running, and a cron job could not reach the keyring: \(reason) "
                + "(this login's bus address changes at the next login)"
        }
    }

    /// A path as it may reach a terminal: control characters escaped.
    private static func shown(_ path: String) -> String { SettingsError.shown(path, limit: nil) }

    public var hint: String? {
        switch self {
        case .invalidPeriod: return "use one of \(ScheduleInterval.offeredText), e.g. 'pwnvault schedule enable --every 6h'"
        case .noVault: return "create it with 'pwnvault init', or name the vault to watch with --vault PATH"
        case .noConfigFolder: return "set HOME (or XDG_CONFIG_HOME to an absolute path) and run it again"
        case .unwritablePath: return "move or rename it to a path without control characters"
        case .foreignUnit: return "rename or remove that unit yourself if pwnvault may use the name, then run it again"
        case .unknownProgramPath: return "run pwnvault by its full path, or install it with 'make install'"
        case .fileFailure: return "check the folder's owner and permissions, then run it again"
        case .systemctlFailed: return "see 'systemctl --user status pwnvault-watch.timer' and 'journalctl --user -u pwnvault-watch'"
        case .noLastingBus:
            return "start a systemd user manager ('loginctl enable-linger'), or a session bus at $XDG_RUNTIME_DIR/bus "
                + "(dbus-daemon --session --address=unix:path=$XDG_RUNTIME_DIR/bus), then run it again"
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
