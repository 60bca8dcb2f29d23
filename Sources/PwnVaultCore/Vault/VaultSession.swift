import FoundationEssentials

/// How an open vault's key was obtained.
public enum UnlockMethod: Equatable, Sendable {
    case keyring
    /// Through the passphrase; `reason` says why the keyring was not used ("the keyring is locked", …).
    /// It is kept in English whatever the reader's language (`status --json` gives it to scripts);
    /// `VaultSession.passphraseReasonShown` is the same reason in the reader's language.
    case passphrase(reason: String)
}

/// Why the vault was opened without the keyring. A caller decides on the case (which hint to give);
/// `message` words it in the reader's language, `Messages.english { $0.message }` for scripts.
public enum KeyringBypass: Equatable, Sendable {
    /// The command asks for the passphrase itself (reveal, passwd): the keyring is not consulted.
    case passphraseRequired
    /// The keyring holds an item for this vault, but its key does not open it.
    case keyDoesNotOpen
    /// The keyring is usable and holds no key for this vault.
    case noKey
    /// The keyring could not be used at all (locked, absent, timed out…).
    case keyring(KeyringError)

    /// The reason in the reader's language (computed when read).
    public var message: String {
        switch self {
        case .passphraseRequired: return msg("the passphrase is required for this command")
        case .keyDoesNotOpen: return msg("the keyring's key for this vault does not open it")
        case .noKey: return msg("the keyring has no key for this vault")
        case let .keyring(error): return error.reason
        }
    }

    /// True when the keyring works but lacks this vault's right key: a run on a terminal puts it there.
    public var keyringLacksTheKey: Bool { self == .noKey || self == .keyDoesNotOpen }
}

/// Asked when the passphrase is needed. `reason` is non-nil when the keyring could not be used, so the
/// caller can say why (one line on stderr) before prompting.
public typealias PassphraseProvider = (_ reason: KeyringBypass?) throws -> SecretBytes

/// An unlocked vault: the key, the header and the payload, and the only way to change them
/// (`update`, which locks, re-reads, applies the change and saves atomically).
public final class VaultSession {
    public let location: VaultLocation
    public let store: VaultStore
    public private(set) var header: VaultHeader
    public private(set) var payload: VaultPayload
    public let method: UnlockMethod
    /// Present when this run proved knowledge of the passphrase (`open(requirePassphrase: true)`):
    /// what `Disclosure` asks for before it shows an account unmasked or names a sensitive breach.
    public private(set) var revealGrant: RevealGrant?
    /// Things worth one line on stderr (the key was stored in the keyring, a wrong keyring item repaired).
    public private(set) var notices: [String] = []
    let key: SecretBytes
    private let keyring: Keyring
    /// The file as it was when `payload` was read from it or written: if it is unchanged under the
    /// lock, `update` need not decrypt it again.
    private var fileBytes: [UInt8]

    private init(location: VaultLocation, store: VaultStore, header: VaultHeader, payload: VaultPayload,
                 key: SecretBytes, method: UnlockMethod, keyring: Keyring, fileBytes: [UInt8]) {
        self.location = location; self.store = store; self.header = header; self.payload = payload
        self.key = key; self.method = method; self.keyring = keyring; self.fileBytes = fileBytes
    }

    // MARK: create

    /// Writes a new, empty vault at `location` and puts its key in the keyring when one is usable.
    /// Returns the session and, when the keyring could not take the key, why.
    public static func create(at location: VaultLocation, keyring: Keyring, passphrase: SecretBytes,
                              kdf: KDFParameters) throws -> (session: VaultSession, keyringProblem: KeyringError?) {
        let store = VaultStore(location: location)
        if store.exists { throw VaultStoreError.alreadyExists(path: location.displayPath) }
        if store.backupExists {
            throw VaultStoreError.backupInTheWay(path: location.displayPath, backup: location.display(store.backupPath))
        }
        let made = try VaultFile.create(passphrase: passphrase, kdf: kdf, payload: VaultPayload())
        try store.create(made.bytes)
        var problem: KeyringError?
        var notice: String?
        do {
            let kept = try keep(made.key, as: .vaultKey(vaultID: made.header.vaultIDHex), in: keyring, replacing: false)
            // init says itself that the key is in the keyring; anything less is worth a line.
            if kept.state != .readable { notice = kept.notice }
        } catch let e as KeyringError {
            problem = e
        }
        let method: UnlockMethod = problem.map { p in .passphrase(reason: Messages.english { p.reason }) } ?? .keyring
        let session = VaultSession(location: location, store: store, header: made.header, payload: VaultPayload(),
                                   key: made.key, method: method, keyring: keyring, fileBytes: made.bytes)
        if let notice { session.notices.append(notice) }
        return (session, problem)
    }

    // MARK: open

    /// Opens the vault: through the keyring when it holds this vault's key, else through the passphrase.
    /// `requirePassphrase` skips the keyring (reveal, passwd's proof of knowledge).
    /// A wrong passphrase is asked for again as `retry` allows (the reason is given to the provider on
    /// the first ask only).
    public static func open(at location: VaultLocation, keyring: Keyring, requirePassphrase: Bool = false,
                            retry: PromptRetry = .once, passphrase: PassphraseProvider) throws -> VaultSession {
        let store = VaultStore(location: location)
        let bytes = try store.read()
        let header = try readHeader(bytes, location: location, store: store)
        let item = KeyringItem.vaultKey(vaultID: header.vaultIDHex)

        var reason: KeyringBypass
        var keyringHoldsWrongKey = false
        var keyringUsable = false
        if requirePassphrase {
            reason = .passphraseRequired
        } else {
            do {
                keyringUsable = true
                if let key = try keyring.lookup(item) {
                    if VaultFile.authenticates(header, key: key) {
                        let payload = try openPayload(bytes, key: key, location: location, store: store)
                        return VaultSession(location: location, store: store, header: header, payload: payload,
                                            key: key, method: .keyring, keyring: keyring, fileBytes: bytes)
                    }
                    keyringHoldsWrongKey = true
                    reason = .keyDoesNotOpen
                } else {
                    reason = .noKey
                }
            } catch let e as KeyringError {
                keyringUsable = false
                reason = .keyring(e)
            }
        }

        let key = try retry.run(retryIf: { ($0 as? VaultFormatError) == .wrongPassphrase }) { attempt in
            let secret = try passphrase(requirePassphrase || attempt > 1 ? nil : reason)
            return try VaultFile.unwrapKey(header, passphrase: secret)
        }
        guard VaultFile.authenticates(header, key: key) else {
            throw VaultFormatError.tampered(reason: phrase("the header does not authenticate under the unwrapped key"))
                .located(location, backup: store.backupPath)
        }
        let payload = try openPayload(bytes, key: key, location: location, store: store)
        let session = VaultSession(location: location, store: store, header: header, payload: payload, key: key,
                                   method: .passphrase(reason: Messages.english { reason.message }), keyring: keyring, fileBytes: bytes)
        if requirePassphrase { session.revealGrant = RevealGrant() }
        // The vault was moved here, or its keyring item was lost or wrong: put the right key in the keyring.
        if keyringUsable && !requirePassphrase {
            do {
                // A wrong key may sit in an item another program wrote under the same attributes (another
                // schema, so storing would not replace it and lookups could keep finding it): remove every
                // matching item first.
                if keyringHoldsWrongKey { try keyring.clear(item) }
                session.notices.append(try keep(key, as: item, in: keyring, replacing: keyringHoldsWrongKey).notice)
            } catch let e as KeyringError {
                session.notices.append(msg("could not store the vault key in the keyring: {1}", e.reason))
            }
        }
        return session
    }

    /// Stores `key` under `item`, then reads it back as a new process would (a fresh search: KeePassXC
    /// approves each connection) and says only what is true of the next run (`state` nil: it could
    /// not be read back).
    static func keep(_ key: SecretBytes, as item: KeyringItem, in keyring: Keyring,
                     replacing: Bool) throws -> (state: KeyringItemState?, notice: String) {
        try keyring.store(item, secret: key)
        let provider = keyring.provider()
        let state: KeyringItemState
        do { state = try keyring.probe(item) } catch let e as KeyringError {
            return (nil, msg("stored the vault key in {1}, but could not read it back ({2})", provider.name, e.reason))
        }
        switch state {
        case .readable:
            return (state, replacing ? msg("replaced the keyring's wrong key for this vault")
                                     : msg("stored the vault key in {1}; next time no passphrase is needed", provider.name))
        case .needsApproval:
            return (state, msg("stored the vault key in {1}, which will ask you to allow each run of pwnvault; for runs without a dialog, {2}", provider.name, provider.unattendedAdvice))
        case .absent:
            return (state, msg("stored the vault key in {1}, but a new process does not find it there; the passphrase stays needed", provider.name))
        }
    }

    // MARK: change

    /// Applies `change` under the vault's lock to the latest content on disk, then saves atomically.
    /// Another process's change made since this session opened is kept.
    @discardableResult
    public func update<T>(_ change: (inout VaultPayload) throws -> T) throws -> T {
        try store.withExclusiveLock {
            let bytes = try store.read()
            let current = try Self.readHeader(bytes, location: location, store: store)
            guard current.vaultID == header.vaultID else {
                throw VaultFormatError.keyMismatch.located(location, backup: store.backupPath)
            }
            var latest = bytes == fileBytes ? payload : try Self.openPayload(bytes, key: key, location: location, store: store)
            let before = latest
            let result = try change(&latest)
            // Nothing changed (only duplicates added, say): no save, so the backup keeps the real previous version.
            if latest == before {
                payload = latest
                fileBytes = bytes
                return result
            }
            let sealed = try VaultFile.seal(latest, header: current, key: key)
            try store.replace(sealed)
            header = try VaultFile.readHeader(sealed)
            payload = latest
            fileBytes = sealed
            return result
        }
    }

    /// Wraps the same vault key under a new passphrase (the keyring item stays as it is).
    public func changePassphrase(to newPassphrase: SecretBytes, kdf: KDFParameters) throws {
        try store.withExclusiveLock {
            let bytes = try store.read()
            let current = try Self.readHeader(bytes, location: location, store: store)
            let latest = bytes == fileBytes ? payload : try Self.openPayload(bytes, key: key, location: location, store: store)
            let rewrapped = try VaultFile.rewrap(current, key: key, newPassphrase: newPassphrase, kdf: kdf)
            let sealed = try VaultFile.seal(latest, header: rewrapped, key: key)
            try store.replace(sealed)
            // The backup still wraps the key under the old passphrase (and would hand the key to anyone
            // who knows it): save once more, so the backup is the new file too. Nothing is lost: both
            // hold the same accounts.
            try store.replace(try VaultFile.seal(latest, header: rewrapped, key: key))
            header = try VaultFile.readHeader(sealed)
            payload = latest
            fileBytes = sealed
        }
    }

    // MARK: helpers

    private static func readHeader(_ bytes: [UInt8], location: VaultLocation, store: VaultStore) throws -> VaultHeader {
        do { return try VaultFile.readHeader(bytes) } catch let e as VaultFormatError {
            throw e.located(location, backup: store.backupPath)
        }
    }

    private static func openPayload(_ bytes: [UInt8], key: SecretBytes, location: VaultLocation,
                                    store: VaultStore) throws -> VaultPayload {
        do { return try VaultFile.open(bytes, key: key).payload } catch let e as VaultFormatError {
            throw e.located(location, backup: store.backupPath)
        }
    }
}

/// A session prints as its payload's counts: `dump` of a class would otherwise list every stored
/// property, the payload's accounts and the key's object included.
extension VaultSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "VaultSession(\(payload))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["payload": payload, "method": method]) }
}
