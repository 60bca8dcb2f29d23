/// Why the vault file could not be found, trusted, read, written or locked. Paths are display paths
/// (`~/…`). Exit status `.vault`, except for a bad or missing location (`.usage`).
public enum VaultStoreError: UserFacingError, Equatable {
    /// Neither `XDG_DATA_HOME` (absolute) nor `HOME` is set, and no path was given.
    case noLocation
    /// The given vault path cannot name a vault file.
    case invalidPath(path: String, reason: String)
    /// No vault at `path`.
    case notFound(path: String)
    /// No vault at `path`, but its backup (`<name>.bak`) is beside it: the accounts may be there.
    case notFoundButBackup(path: String, backup: String)
    /// `create` found no vault at `path` but a backup of an earlier one at `backup`, which the new
    /// vault's first save would replace.
    case backupInTheWay(path: String, backup: String)
    /// `create` found something at `path` already.
    case alreadyExists(path: String)
    /// The vault file (or its backup) can be read or written by group or others.
    case unsafePermissions(path: String, mode: UInt32)
    /// The vault's folder can be written by group or others, who could then swap the vault.
    case unsafeFolderPermissions(path: String, mode: UInt32)
    /// The file or folder at `path` belongs to another user.
    case notOwned(path: String, owner: UInt32)
    /// `path` is a symbolic link, a folder or a special file where the vault file should be.
    case notARegularFile(path: String, what: String)
    /// `path` should be the vault's folder but is not a folder.
    case notAFolder(path: String)
    /// The file is far larger than any vault (`VaultStore.maximumSize`).
    case tooLarge(path: String, size: Int)
    /// The file or its folder could not be read; `reason` is the system's wording ("permission denied").
    case readFailed(path: String, reason: String)
    /// Nothing was changed: the vault file holds what it held before.
    case writeFailed(path: String, reason: String)
    /// The new vault is in place, but flushing its folder to disk failed.
    case syncFailed(path: String, reason: String)
    /// Another process held the lock for the whole timeout.
    case lockTimeout(path: String, seconds: Int)
    /// The lock file could not be created or locked.
    case lockFailed(path: String, reason: String)

    public var message: String {
        switch self {
        case .noLocation:
            return msg("cannot tell where the vault is: neither HOME nor XDG_DATA_HOME is set")
        case let .invalidPath(path, reason):
            return msg("cannot use '{1}' as the vault path: {2}", SettingsError.shown(path), Messages.shown(reason))
        case let .notFound(path):
            return msg("no vault at {1}", path)
        case let .notFoundButBackup(path, backup):
            return msg("no vault at {1}, but its backup {2} is there", path, backup)
        case let .alreadyExists(path):
            return msg("a vault already exists at {1}", path)
        case let .backupInTheWay(path, backup):
            return msg("refusing to create a vault at {1}: the backup of an earlier vault, {2}, would be lost", path, backup)
        case let .unsafePermissions(path, mode):
            return msg("refusing to use {1}: other users can access it (mode {2})", path, Self.octal(mode))
        case let .unsafeFolderPermissions(path, mode):
            return msg("refusing to use the vault folder {1}: other users can change it (mode {2})", path, Self.octal(mode))
        case let .notOwned(path, owner):
            return msg("refusing to use {1}: it belongs to another user (uid {2})", path, owner)
        case let .notARegularFile(path, what):
            return msg("refusing to use {1} as the vault: it is {2}, not a regular file", path, Messages.shown(what))
        case let .notAFolder(path):
            return msg("cannot use {1} as the vault folder: it is not a folder", path)
        case let .tooLarge(path, size):
            return msg("{1} is too large to be a vault ({2} bytes)", path, size)
        case let .readFailed(path, reason):
            return msg("could not read the vault at {1}: {2}", path, reason)
        case let .writeFailed(path, reason):
            return msg("could not save the vault at {1}: {2}", path, reason)
        case let .syncFailed(path, reason):
            return msg("saved the vault at {1}, but could not flush it to disk: {2}", path, reason)
        case let .lockTimeout(path, seconds):
            return msg("another pwnvault is changing the vault at {1} (gave up after {2} s)", path, seconds)
        case let .lockFailed(path, reason):
            return msg("could not lock the vault at {1}: {2}", path, reason)
        }
    }

    public var hint: String? {
        switch self {
        case .noLocation:
            return msg("pass --vault PATH or set PWNVAULT_VAULT")
        case .invalidPath:
            return msg("pass the path of the vault file itself, e.g. --vault ~/vaults/work")
        case .notFound:
            return msg("create one with: pwnvault init")
        case let .notFoundButBackup(path, backup):
            return msg("restore it with: mv {1} {2} (it holds the vault as it was before its last change)",
                       Self.shellQuoted(backup), Self.shellQuoted(path))
        case .alreadyExists:
            return msg("pwnvault never overwrites a vault; move it away first, or choose another path with --vault")
        case let .backupInTheWay(path, backup):
            return msg("restore it with: mv {1} {2}; or move it elsewhere first to start afresh",
                       Self.shellQuoted(backup), Self.shellQuoted(path))
        case let .unsafePermissions(path, _):
            return msg("if nobody else changed it, make it private with: chmod 600 {1}", Self.shellQuoted(path))
        case let .unsafeFolderPermissions(path, _):
            return msg("if nobody else changed it, make it private with: chmod 700 {1}", Self.shellQuoted(path))
        case .notOwned:
            return msg("run pwnvault as that user, or use a vault of your own with --vault PATH")
        case let .notARegularFile(_, what) where what == "a symbolic link":
            return msg("pass the real file with --vault PATH (pwnvault does not follow links to the vault)")
        case .tooLarge:
            return msg("check that --vault or PWNVAULT_VAULT points at a vault")
        case .writeFailed:
            return msg("the vault file on disk was not changed")
        case .syncFailed:
            return msg("the change could be lost if the machine loses power now; check the disk")
        case .lockTimeout:
            return msg("wait for it to finish, then try again")
        default:
            return nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .noLocation, .invalidPath: return .usage
        default: return .vault
        }
    }

    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A display path as a shell word: `~/` stays unquoted so the shell expands it; the rest is
    /// single-quoted when it holds anything but plainly safe characters.
    static func shellQuoted(_ path: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=")
        func quote(_ s: Substring) -> String {
            if !s.isEmpty && s.allSatisfy({ safe.contains($0) }) { return String(s) }
            return "'" + s.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
        }
        if path == "~" { return "~" }
        if path.hasPrefix("~/") { return "~/" + quote(path.dropFirst(2)) }
        return quote(Substring(path))
    }
}
