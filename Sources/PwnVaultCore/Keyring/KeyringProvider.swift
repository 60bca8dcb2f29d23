/// Who serves the Secret Service on this session bus: every keyring message, hint and `doctor` line
/// is worded for it, since each provider is set up, locked and unlocked differently (issue 19).
///
/// Found from the process that owns `org.freedesktop.secrets` (the bus names its pid; `/proc` names
/// the program). Tested against the real daemons: GNOME Keyring, KeePassXC 2.7, KWallet 5.
public enum KeyringProvider: Equatable, Sendable {
    case gnomeKeyring
    case keePassXC
    case kWallet
    /// Another program, by its process name (already cleaned for one line).
    case other(String)
    /// Not known: nobody owned the name when asked (a provider may be started on demand), or the
    /// process could not be read (another pid namespace).
    case unknown

    /// The providers pwnvault is tested with, each against the real daemon.
    public static let tested: [KeyringProvider] = [.gnomeKeyring, .keePassXC, .kWallet]

    /// How a tested provider must be set up for pwnvault (nil for others).
    public var setUp: String? {
        switch self {
        case .gnomeKeyring: return msg("nothing to set up: the login keyring is unlocked when you log in")
        case .keePassXC: return msg("Settings → Secret Service Integration on, a group exposed in the database's settings, the database unlocked; with \"Confirm when passwords are retrieved by clients\" on (the default) each run on a terminal asks you to allow it, and unattended runs (watch, the timer) need it off")
        case .kWallet: return msg("kwalletrc: [org.freedesktop.secrets] apiEnabled=true, and the wallet open (pam_kwallet opens it at login)")
        case .other, .unknown: return nil
        }
    }

    /// The provider for a program name (`/proc/PID/comm` or the executable's file name).
    public static func named(_ program: String) -> KeyringProvider {
        let name = program.lowercased()
        if name.hasPrefix("gnome-keyring") { return .gnomeKeyring }
        if name.hasPrefix("keepassxc") { return .keePassXC }
        if name.hasPrefix("kwalletd") || name.hasPrefix("ksecretd") { return .kWallet }
        let cleaned = String(program.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }.prefix(32))
        return cleaned.isEmpty ? .unknown : .other(cleaned)
    }

    /// The provider running as `pid`, read from `/proc` (the executable's name first: `comm` is cut to
    /// 15 bytes and can be changed by the process). A name, not an identity: any process of the user
    /// whose executable is called `keepassxc` is KeePassXC here (same-user malware is outside the
    /// threat model; Docs/THREAT_MODEL.md, "Keys and memory").
    static func running(pid: UInt32) -> KeyringProvider {
        if let exe = TerminalIO.readLink("/proc/\(pid)/exe"), let name = exe.split(separator: "/").last {
            // "keepassxc (deleted)" after an upgrade replaced the file: the name still says who it is.
            let provider = named(String(name.split(separator: " ").first ?? name))
            if provider != .unknown { return provider }
        }
        if let comm = TerminalIO.readSmallFile("/proc/\(pid)/comm", limit: 64) {
            return named(comm.trimmingWhitespace())
        }
        return .unknown
    }

    /// A stable name for scripts (`status --json`): gnome-keyring, keepassxc, kwallet, other, unknown.
    public var identifier: String {
        switch self {
        case .gnomeKeyring: return "gnome-keyring"
        case .keePassXC: return "keepassxc"
        case .kWallet: return "kwallet"
        case .other: return "other"
        case .unknown: return "unknown"
        }
    }

    /// The provider's name in a sentence: "KeePassXC", "GNOME Keyring", "the keyring".
    public var name: String {
        switch self {
        case .gnomeKeyring: return "GNOME Keyring"
        case .keePassXC: return "KeePassXC"
        case .kWallet: return "KWallet"
        case let .other(program): return msg("the keyring ({1})", program)
        case .unknown: return msg("the keyring")
        }
    }

    /// The same at the start of a sentence.
    public var capitalizedName: String {
        switch self {
        case let .other(program): return msg("The keyring ({1})", program)
        case .unknown: return msg("The keyring")
        default: return name
        }
    }

    /// What a person does to unlock it.
    public var unlockAdvice: String {
        switch self {
        case .gnomeKeyring: return msg("unlock the keyring (log in to the desktop session, or open Seahorse)")
        case .keePassXC: return msg("unlock the database in KeePassXC")
        case .kWallet: return msg("open the wallet (KWalletManager, or log in to Plasma)")
        case .other, .unknown: return msg("unlock your keyring")
        }
    }

    /// How to make it serve pwnvault without a person answering a dialog (for unattended runs).
    public var unattendedAdvice: String {
        switch self {
        case .keePassXC:
            return msg("in KeePassXC, Settings → Secret Service Integration: turn off \"Confirm when passwords are retrieved by clients\" and keep the database unlocked")
        case .kWallet:
            return msg("keep the wallet open (KWalletManager: do not close it when idle)")
        case .gnomeKeyring:
            return msg("keep the login keyring unlocked (it is unlocked when you log in)")
        case .other, .unknown:
            return msg("keep your keyring unlocked")
        }
    }

    /// How to give it somewhere to keep pwnvault's items.
    public var collectionAdvice: String {
        switch self {
        case .keePassXC:
            return msg("open a database in KeePassXC and expose a group to the Secret Service (Database Settings → Secret Service Integration)")
        case .kWallet:
            return msg("open a wallet, and check that kwalletrc has [org.freedesktop.secrets] apiEnabled=true")
        case .gnomeKeyring:
            return msg("log in to the desktop session (it makes the login keyring), or create a keyring in Seahorse")
        case .other, .unknown:
            return msg("create a default keyring collection in your keyring program")
        }
    }

    /// What is locked, in its own words.
    var lockedPhrase: String {
        switch self {
        case .gnomeKeyring: return msg("the GNOME keyring is locked")
        case .keePassXC: return msg("KeePassXC's database is locked")
        case .kWallet: return msg("KWallet's wallet is closed")
        case .other, .unknown: return msg("{1} is locked", name)
        }
    }

    /// What its dialog asks of the person, for "waiting for …: … in its window".
    func dialogRequest(unlocking collection: Bool) -> String {
        switch self {
        case .keePassXC: return collection ? msg("unlock the database") : msg("allow pwnvault's access")
        case .kWallet: return msg("open the wallet")
        case .gnomeKeyring: return msg("unlock the keyring")
        case .other, .unknown: return collection ? msg("unlock the keyring") : msg("allow pwnvault's access")
        }
    }
}
