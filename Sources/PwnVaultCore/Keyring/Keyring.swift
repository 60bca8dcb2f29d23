/// What pwnvault keeps in the desktop keyring.
public enum KeyringItem: Equatable, Sendable {
    /// The 32-byte key of one vault, identified by the vault's random id (hex). Not by its path: a
    /// label with the path shows the user's name to anything that lists the keyring, and KWallet
    /// files a label with `/` in folders.
    case vaultKey(vaultID: String)
    /// The HIBP API key.
    case apiKey

    /// The attributes the item is stored and looked up under (`secret-tool search application pwnvault`).
    public var attributes: [(String, String)] {
        switch self {
        case let .vaultKey(id): return [("application", "pwnvault"), ("type", "vault-key"), ("vault-id", id)]
        case .apiKey: return [("application", "pwnvault"), ("type", "hibp-api-key")]
        }
    }

    /// The readable label shown by keyring managers (Seahorse, KeePassXC, KWalletManager): pwnvault
    /// and the vault id's first 16 hex digits (what `pwnvault status` prints). No path, no `/`.
    public var label: String {
        switch self {
        case let .vaultKey(id): return "pwnvault vault key \(id.prefix(16))"
        case .apiKey: return "pwnvault HIBP API key"
        }
    }
}

/// Why the keyring could not be used. A locked keyring is never reported as a missing item. The
/// provider, where one is named, words the message and the hint.
public enum KeyringError: Error, Equatable, Sendable {
    /// No Secret Service here (no session bus, no daemon): fall back to the passphrase.
    case unavailable(reason: String)
    /// The provider has nowhere to keep items: no default collection (KeePassXC: no database open
    /// or no group exposed; KWallet: no wallet).
    case noCollection(KeyringProvider)
    /// Locked, and this run may not show the provider's unlock dialog (or it could not be shown).
    case locked(KeyringProvider)
    /// The item is there but the provider asks a person to approve each access (KeePassXC's
    /// per-access confirmation), and this run is unattended.
    case needsApproval(KeyringProvider)
    /// The provider asks a person to confirm each deletion (KeePassXC), and this run is unattended.
    case needsDeletionConfirmed(KeyringProvider)
    /// The person refused or closed the provider's dialog.
    case refused(KeyringProvider)
    /// Nobody answered the provider's dialog within the prompt timeout (milliseconds).
    case unanswered(KeyringProvider, milliseconds: Int)
    /// The provider did not answer in time.
    case timedOut(KeyringProvider)
    /// `PWNVAULT_KEYRING=none`.
    case disabled
    /// The Secret Service answered with an error.
    case failed(reason: String)

    /// One lower-case phrase for "falling back to the passphrase: …".
    public var reason: String {
        switch self {
        case let .unavailable(r): return msg("no usable keyring ({1})", Messages.shown(r))
        case let .noCollection(p):
            switch p {
            case .keePassXC: return msg("KeePassXC has no database open for pwnvault (none open, or no group exposed to the Secret Service)")
            case .kWallet: return msg("KWallet has no wallet open for the Secret Service")
            default: return msg("no usable keyring ({1} has no default collection)", p.name)
            }
        case let .locked(p): return p.lockedPhrase
        case let .needsApproval(p): return msg("{1} asks a person to approve each access to pwnvault's key, and nobody is here to answer", p.name)
        case let .needsDeletionConfirmed(p): return msg("{1} asks a person to confirm deleting pwnvault's item, and nobody is here to answer", p.name)
        case let .refused(p): return msg("{1}'s dialog was closed without allowing access", p.name)
        case let .unanswered(p, ms): return msg("nobody answered {1}'s dialog within {2}", p.name, Self.seconds(ms))
        case let .timedOut(p): return msg("{1} did not answer in time", p.name)
        case .disabled: return msg("the keyring is turned off (PWNVAULT_KEYRING=none)")
        case let .failed(r): return msg("the keyring failed ({1})", Messages.shown(r))
        }
    }

    /// "60 s", "1.5 s".
    static func seconds(_ milliseconds: Int) -> String {
        msg("{1} s", milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)")
    }
}

/// Whether the keyring may show its own dialogs (unlock, access approval) in this run.
public struct KeyringInteraction: Sendable {
    /// A person is at a terminal: the provider may show its dialog, after `announce` said so.
    public let allowsDialogs: Bool
    /// How long to wait for a person to answer a dialog.
    public let promptTimeoutMilliseconds: Int
    /// Says, in one line, what the person is waiting for and what to do ("waiting for KeePassXC: …").
    public let announce: @Sendable (String) -> Void

    public init(allowsDialogs: Bool, promptTimeoutMilliseconds: Int, announce: @escaping @Sendable (String) -> Void) {
        self.allowsDialogs = allowsDialogs
        self.promptTimeoutMilliseconds = promptTimeoutMilliseconds
        self.announce = announce
    }

    /// No person: a dialog would wait for nobody (watch, the scheduled run, completions, pipes).
    public static let unattended = KeyringInteraction(allowsDialogs: false, promptTimeoutMilliseconds: 1, announce: { _ in })
}

/// What a new process would find under an item, without a dialog and without reading the secret.
public enum KeyringItemState: Equatable, Sendable {
    /// Readable without a dialog.
    case readable
    /// Present, but reading it needs a person to answer the provider's dialog each time.
    case needsApproval
    /// Not there.
    case absent
}

/// A place to keep secrets: the Secret Service, or nothing at all.
public protocol Keyring: Sendable {
    /// The secret stored under `item`, or nil when there is none. Throws `KeyringError`, never
    /// returns nil for a locked keyring.
    func lookup(_ item: KeyringItem) throws -> SecretBytes?
    /// Stores (or replaces) the secret under `item`.
    func store(_ item: KeyringItem, secret: SecretBytes) throws
    /// Removes the item; true when something was removed.
    @discardableResult func clear(_ item: KeyringItem) throws -> Bool
    /// What a new process would find under `item` (a fresh connection: KeePassXC approves each
    /// client connection), without a dialog. For `doctor` and for reading back what was stored.
    func probe(_ item: KeyringItem) throws -> KeyringItemState
    /// Who serves the keyring, as far as can be told without asking it anything.
    func provider() -> KeyringProvider
}

/// The keyring used when `PWNVAULT_KEYRING=none`: every call fails with `.disabled`.
public struct DisabledKeyring: Keyring {
    public init() {}
    public func lookup(_ item: KeyringItem) throws -> SecretBytes? { throw KeyringError.disabled }
    public func store(_ item: KeyringItem, secret: SecretBytes) throws { throw KeyringError.disabled }
    public func clear(_ item: KeyringItem) throws -> Bool { throw KeyringError.disabled }
    public func probe(_ item: KeyringItem) throws -> KeyringItemState { throw KeyringError.disabled }
    public func provider() -> KeyringProvider { .unknown }
}

extension KeyringError: UserFacingError {
    public var message: String { reason }
    public var hint: String? {
        switch self {
        case let .noCollection(p): return p.collectionAdvice
        case let .locked(p): return msg("{1} and try again; unattended runs never show an unlock dialog", p.unlockAdvice)
        case let .needsApproval(p): return msg("{1}, or run pwnvault from a terminal and approve it in {2}'s window", p.unattendedAdvice, p.name)
        case let .needsDeletionConfirmed(p): return msg("run it from a terminal and confirm the deletion in {1}'s window", p.name)
        case let .refused(p): return msg("run it again and allow access in {1}'s window, or give the passphrase", p.name)
        case let .unanswered(p, _):
            // KeePassXC 2.7 leaves its access dialog up when the prompt is withdrawn (seen with the real daemon).
            return p == .keePassXC
                ? msg("KeePassXC keeps its dialog open after pwnvault gives up: close it; then run it again and answer the dialog, or raise {1}", Settings.keyringPromptTimeoutVariable)
                : msg("run it again and answer the dialog, or raise {1}", Settings.keyringPromptTimeoutVariable)
        case let .timedOut(p):
            switch p {
            case .keePassXC: return msg("is KeePassXC showing a dialog? answer it, or restart KeePassXC; or raise {1}", Settings.keyringTimeoutVariable)
            default: return msg("restart {1} (or log out and in), or raise {2}", p.name, Settings.keyringTimeoutVariable)
            }
        case .disabled: return msg("unset PWNVAULT_KEYRING to use the desktop keyring")
        case .unavailable, .failed:
            return msg("a Secret Service (GNOME Keyring, KeePassXC with Secret Service integration, KWallet with apiEnabled) must be running in this session")
        }
    }
    public var exitStatus: ExitStatus { .keyring }
}
