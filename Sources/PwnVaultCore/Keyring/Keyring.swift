/// What pwnvault keeps in the desktop keyring.
public enum KeyringItem: Equatable, Sendable {
    /// The 32-byte key of one vault, identified by the vault's random id (hex) and, for people
    /// browsing their keyring, its path.
    case vaultKey(vaultID: String, path: String)
    /// The HIBP API key.
    case apiKey

    /// The attributes the item is stored and looked up under (`secret-tool search application pwnvault`).
    public var attributes: [(String, String)] {
        switch self {
        case let .vaultKey(id, _): return [("application", "pwnvault"), ("type", "vault-key"), ("vault-id", id)]
        case .apiKey: return [("application", "pwnvault"), ("type", "hibp-api-key")]
        }
    }

    /// The readable label shown by keyring managers (Seahorse, KeePassXC).
    public var label: String {
        switch self {
        case let .vaultKey(_, path): return "pwnvault vault key (\(path))"
        case .apiKey: return "pwnvault HIBP API key"
        }
    }
}

/// Why the keyring could not be used. A locked keyring is never reported as a missing item.
public enum KeyringError: Error, Equatable, Sendable {
    /// No Secret Service here (no session bus, no daemon, no default collection): fall back to the passphrase.
    case unavailable(reason: String)
    /// The collection is locked and cannot be unlocked without a prompt.
    case locked
    /// The daemon did not answer in time.
    case timedOut
    /// `PWNVAULT_KEYRING=none`.
    case disabled
    /// The Secret Service answered with an error.
    case failed(reason: String)

    /// One lower-case phrase for "falling back to the passphrase: …".
    public var reason: String {
        switch self {
        case let .unavailable(r): return "no usable keyring (\(r))"
        case .locked: return "the keyring is locked"
        case .timedOut: return "the keyring did not answer in time"
        case .disabled: return "the keyring is turned off (PWNVAULT_KEYRING=none)"
        case let .failed(r): return "the keyring failed (\(r))"
        }
    }
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
}

/// The keyring used when `PWNVAULT_KEYRING=none`: every call fails with `.disabled`.
public struct DisabledKeyring: Keyring {
    public init() {}
    public func lookup(_ item: KeyringItem) throws -> SecretBytes? { throw KeyringError.disabled }
    public func store(_ item: KeyringItem, secret: SecretBytes) throws { throw KeyringError.disabled }
    public func clear(_ item: KeyringItem) throws -> Bool { throw KeyringError.disabled }
}

extension KeyringError: UserFacingError {
    public var message: String { reason }
    public var hint: String? {
        switch self {
        case .locked: return "unlock the keyring (log in to the desktop session, or open Seahorse) and try again"
        case .disabled: return "unset PWNVAULT_KEYRING to use the desktop keyring"
        default: return "a Secret Service (GNOME Keyring, KeePassXC, KWallet) must be running in this session"
        }
    }
    public var exitStatus: ExitStatus { .keyring }
}
