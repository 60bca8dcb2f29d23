// The only file that imports the libsecret shim. Every call into it is made here and its result
// mapped once, to a value or a `KeyringError`.
internal import CSecretShim

/// The desktop keyring, through the freedesktop Secret Service (GNOME Keyring, KeePassXC, KWallet)
/// and libsecret.
///
/// Items go into the default collection under the attributes of `KeyringItem.attributes`, so
/// `secret-tool search --all application pwnvault` lists them; the secret is kept as base64 text.
/// Every call gives up after `timeoutMilliseconds` (a stopped or wedged daemon otherwise blocks
/// forever), except while a person is answering the provider's own dialog, which `interaction`
/// allows or forbids: an unattended run never raises a dialog nobody will answer.
///
/// Providers lock differently, and a locked item must never pass for a missing key:
/// - GNOME Keyring locks collections; its unlock dialog needs the desktop.
/// - KeePassXC (per-access confirmation on, its default) lists pwnvault's items as *locked* for every
///   new client connection until the person allows it; a locked database makes even a search show
///   its "Unlock Database" dialog, so that state is asked about first.
/// - KWallet reports every collection locked after login until a client calls Unlock; its prompt then
///   completes at once, without a dialog, while the wallet is open (asked of kwalletd first).
///
/// It talks to the D-Bus session bus of the process environment (`DBUS_SESSION_BUS_ADDRESS`).
/// GLib opens that connection once per process and keeps it, so one process can only ever use one
/// bus: to exercise another keyring session, run another process.
public struct SecretServiceKeyring: Keyring {
    /// The timeout used when none is given: 2 s.
    public static let defaultTimeoutMilliseconds: UInt32 = 2_000
    /// The largest secret, in bytes, that can be stored and looked up.
    public static let maximumSecretBytes = Int(PWV_SECRET_MAX_BYTES)

    /// How long each call may take before it is cancelled and throws `KeyringError.timedOut`.
    public let timeoutMilliseconds: UInt32
    /// Whether the provider may show its dialogs, and how long a person has to answer them.
    public let interaction: KeyringInteraction
    /// The provider found once per keyring, shared by its copies (the keyring is a value type).
    private let identified = Locked<KeyringProvider?>(nil)

    /// A keyring whose calls give up after `timeoutMilliseconds` (at least 1).
    public init(timeoutMilliseconds: UInt32 = SecretServiceKeyring.defaultTimeoutMilliseconds,
                interaction: KeyringInteraction = .unattended) {
        precondition(timeoutMilliseconds > 0, "a keyring timeout must be positive")
        self.timeoutMilliseconds = timeoutMilliseconds
        self.interaction = interaction
    }

    // MARK: who serves it

    /// The provider that owns `org.freedesktop.secrets`, asked of the bus (one round trip to the bus,
    /// none to the provider) and remembered. `.unknown` when nobody owns the name yet (a provider
    /// may be started on demand: then asked again next time) or the bus cannot be reached.
    public func provider() -> KeyringProvider {
        if let known = identified.value { return known }
        var pid: UInt32 = 0
        var error = pwv_error()
        guard pwv_secret_provider_pid(timeoutMilliseconds, &pid, &error) == Int32(PWV_SECRET_OK), pid > 0 else {
            return .unknown
        }
        let provider = KeyringProvider.running(pid: pid)
        identified.withLock { $0 = provider }
        return provider
    }

    // MARK: lookup

    /// The secret stored under `item`, in secure memory, or nil when there is none.
    /// Throws rather than returning nil when the item (or its collection) is locked.
    ///
    /// When an unlocked item matches it makes the D-Bus calls `secret-tool lookup` makes. A locked
    /// match is unlocked without a dialog when the provider allows (KWallet); otherwise a person
    /// at a terminal is told what to answer and the provider shows its dialog, and an unattended
    /// run stops with the reason.
    public func lookup(_ item: KeyringItem) throws -> SecretBytes? {
        let provider = provider()
        try requireOpenDatabase(provider)
        switch try readQuietly(item, provider: provider) {
        case let .secret(secret):
            return secret
        case .absent:
            // A locked collection may hide its items from the search.
            guard try isLocked() else { return nil }
            try unlockDefaultCollection(provider)
            switch try readQuietly(item, provider: provider) {
            case let .secret(secret): return secret
            case .absent: return nil
            case .needsDialog: return try readThroughDialog(item, provider: provider)
            }
        case .needsDialog:
            return try readThroughDialog(item, provider: provider)
        }
    }

    /// A read that never shows a dialog: a prompt is withdrawn unseen, except KWallet's while its
    /// wallet is open (asked only when a prompt was met, so an unlocked item costs nothing more).
    private func readQuietly(_ item: KeyringItem, provider: KeyringProvider) throws -> ReadOutcome {
        let outcome = try read(item, mode: PWV_UNLOCK_SILENT, timeout: timeoutMilliseconds, provider: provider)
        guard case .needsDialog = outcome, quietMode(provider) == PWV_UNLOCK_PROMPT else { return outcome }
        return try read(item, mode: PWV_UNLOCK_PROMPT, timeout: timeoutMilliseconds, provider: provider)
    }

    private enum ReadOutcome { case secret(SecretBytes), absent, needsDialog }

    /// Reads the item through the provider's dialog, after saying so; unattended runs stop instead.
    private func readThroughDialog(_ item: KeyringItem, provider: KeyringProvider) throws -> SecretBytes? {
        // The collection locked (GNOME Keyring, a closed wallet) or only this client not yet allowed (KeePassXC)?
        let collectionLocked = (try? isLocked()) ?? false
        guard interaction.allowsDialogs else {
            throw collectionLocked ? KeyringError.locked(provider) : KeyringError.needsApproval(provider)
        }
        announce(provider, unlocking: collectionLocked)
        switch try read(item, mode: PWV_UNLOCK_PROMPT, timeout: promptTimeout, provider: provider, prompting: true) {
        case let .secret(secret): return secret
        case .absent: return nil
        case .needsDialog: throw KeyringError.refused(provider)
        }
    }

    /// One lookup through the shim, as `mode` allows.
    private func read(_ item: KeyringItem, mode: pwv_unlock_mode, timeout: UInt32, provider: KeyringProvider,
                      prompting: Bool = false) throws -> ReadOutcome {
        let buffer = SecretBytes(count: Self.maximumSecretBytes)   // wiped when it goes away
        var length = 0
        var error = pwv_error()
        let status = Self.withCAttributes(item.attributes) { keys, values, count in
            buffer.withUnsafeMutableBytes { out in
                pwv_secret_lookup(keys, values, count, Int32(mode.rawValue), out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  out.count, &length, timeout, &error)
            }
        }
        switch status {
        case Int32(PWV_SECRET_OK):
            let secret = SecretBytes(count: length)
            secret.withUnsafeMutableBytes { target in
                buffer.withUnsafeBytes { source in
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(length)))
                }
            }
            return .secret(secret)
        case Int32(PWV_SECRET_ABSENT): return .absent
        case Int32(PWV_SECRET_NEEDS_PROMPT), Int32(PWV_SECRET_LOCKED_MATCH): return .needsDialog
        case Int32(PWV_SECRET_DISMISSED): throw KeyringError.refused(provider)
        default: throw failure(status: status, error: error, provider: provider, prompting: prompting)
        }
    }

    // MARK: store and clear

    /// Stores `secret` (1 to `maximumSecretBytes` bytes) under `item`, replacing what was there (an
    /// existing item is updated in place and relabelled).
    public func store(_ item: KeyringItem, secret: SecretBytes) throws {
        guard (1...Self.maximumSecretBytes).contains(secret.count) else {
            throw KeyringError.failed(reason: "a secret must hold 1 to \(Self.maximumSecretBytes) bytes")
        }
        let provider = provider()
        try requireOpenDatabase(provider)
        // A locked default collection would otherwise be met with an unlock prompt nobody may see,
        // or, when there is no default collection, with an attempt to create one.
        if try isLocked() { try unlockDefaultCollection(provider) }
        try withDialogIfNeeded(provider) { mode, timeout in
            var error = pwv_error()
            let status = Self.withCAttributes(item.attributes) { keys, values, count in
                item.label.withCString { label in
                    secret.withUnsafeBytes { bytes in
                        pwv_secret_store(keys, values, count, Int32(mode.rawValue), label,
                                         bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, timeout, &error)
                    }
                }
            }
            return (status, error)
        }
    }

    /// Removes the item; true when something was removed. A locked keyring throws rather than
    /// answering "nothing removed".
    @discardableResult
    public func clear(_ item: KeyringItem) throws -> Bool {
        let provider = provider()
        try requireOpenDatabase(provider)
        if try isLocked() { try unlockDefaultCollection(provider) }
        let status = try withDialogIfNeeded(provider, deleting: true) { mode, timeout in
            var error = pwv_error()
            let status = Self.withCAttributes(item.attributes) { keys, values, count in
                pwv_secret_clear(keys, values, count, Int32(mode.rawValue), timeout, &error)
            }
            return (status, error)
        }
        return status == Int32(PWV_SECRET_OK)
    }

    /// Runs `call` without a dialog first; when the provider wants one (KeePassXC's approval of an
    /// item this client may not touch, its confirmation of a deletion), a person at a terminal is
    /// told and the call runs again letting the provider ask; an unattended run stops. Returns the
    /// final status when it is an answer (OK, ABSENT), throws otherwise.
    @discardableResult
    private func withDialogIfNeeded(_ provider: KeyringProvider, deleting: Bool = false,
                                    _ call: (pwv_unlock_mode, UInt32) -> (Int32, pwv_error)) throws -> Int32 {
        var (status, error) = call(quietMode(provider), timeoutMilliseconds)
        var prompting = false
        if status == Int32(PWV_SECRET_NEEDS_PROMPT) || status == Int32(PWV_SECRET_LOCKED_MATCH) {
            let collectionLocked = (try? isLocked()) ?? false
            guard interaction.allowsDialogs else {
                if collectionLocked { throw KeyringError.locked(provider) }
                throw deleting ? KeyringError.needsDeletionConfirmed(provider) : KeyringError.needsApproval(provider)
            }
            if deleting && !collectionLocked {
                interaction.announce(msg("waiting for {1}: confirm the deletion in its window (up to {2})…", provider.name,
                                         KeyringError.seconds(interaction.promptTimeoutMilliseconds)))
            } else {
                announce(provider, unlocking: collectionLocked)
            }
            prompting = true
            (status, error) = call(PWV_UNLOCK_PROMPT, promptTimeout)
        }
        switch status {
        case Int32(PWV_SECRET_OK), Int32(PWV_SECRET_ABSENT): return status
        case Int32(PWV_SECRET_DISMISSED), Int32(PWV_SECRET_NEEDS_PROMPT), Int32(PWV_SECRET_LOCKED_MATCH):
            throw KeyringError.refused(provider)
        default: throw failure(status: status, error: error, provider: provider, prompting: prompting)
        }
    }

    // MARK: what a new process would get

    /// What a new process would find under `item`: searched on a connection of its own (KeePassXC
    /// approves each connection), a locked match unlocked only where no dialog is needed. Never
    /// shows a dialog, never reads the secret.
    public func probe(_ item: KeyringItem) throws -> KeyringItemState {
        let provider = provider()
        if provider == .keePassXC, try allCollectionsLocked() { throw KeyringError.locked(provider) }
        let quiet = quietMode(provider)
        if quiet == PWV_UNLOCK_PROMPT, try isLocked() {
            // KWallet with its wallet open: its unlock is for every connection and needs no dialog.
            try unlockDefaultCollection(provider)
        }
        let state = try search(item, fresh: true, mode: PWV_UNLOCK_SILENT, provider: provider)
        if state == .absent, try isLocked() {
            var error = pwv_error()
            let status = pwv_secret_unlock_default(Int32(quiet.rawValue), timeoutMilliseconds, &error)
            guard status == Int32(PWV_SECRET_OK) else {
                if status < 0 { throw failure(status: status, error: error, provider: provider) }
                throw KeyringError.locked(provider)
            }
            return try search(item, fresh: true, mode: PWV_UNLOCK_SILENT, provider: provider)
        }
        // A match behind a locked collection (GNOME Keyring, a closed wallet) is locked, not waiting
        // for an approval of this client.
        if state == .needsApproval, try isLocked() { throw KeyringError.locked(provider) }
        return state
    }

    private func search(_ item: KeyringItem, fresh: Bool, mode: pwv_unlock_mode,
                        provider: KeyringProvider) throws -> KeyringItemState {
        var error = pwv_error()
        let status = Self.withCAttributes(item.attributes) { keys, values, count in
            pwv_secret_search(keys, values, count, fresh ? 1 : 0, Int32(mode.rawValue), timeoutMilliseconds, &error)
        }
        switch status {
        case Int32(PWV_SECRET_OK): return .readable
        case Int32(PWV_SECRET_ABSENT): return .absent
        case Int32(PWV_SECRET_LOCKED_MATCH), Int32(PWV_SECRET_NEEDS_PROMPT): return .needsApproval
        default: throw failure(status: status, error: error, provider: provider)
        }
    }

    // MARK: locks

    /// Whether the default collection is locked. Throws `.unavailable` when there is no Secret
    /// Service, `.noCollection` when it has no default collection, `.timedOut` when it does not answer.
    public func isLocked() throws -> Bool {
        var error = pwv_error()
        let status = pwv_secret_is_locked(timeoutMilliseconds, &error)
        switch status {
        case 0: return false
        case Int32(PWV_SECRET_LOCKED): return true
        default: throw failure(status: status, error: error, provider: provider())
        }
    }

    /// Whether every collection is locked (KeePassXC with its database locked). Reads properties only.
    private func allCollectionsLocked() throws -> Bool {
        var error = pwv_error()
        let status = pwv_secret_all_locked(timeoutMilliseconds, &error)
        switch status {
        case 0: return false
        case Int32(PWV_SECRET_LOCKED): return true
        default: throw failure(status: status, error: error, provider: provider())
        }
    }

    /// KeePassXC answers a search of a locked database with its "Unlock Database" dialog and no reply
    /// until it is answered: ask first, and unlock through a proper prompt (one that is withdrawn
    /// when pwnvault gives up) where a person is there to answer it.
    private func requireOpenDatabase(_ provider: KeyringProvider) throws {
        guard provider == .keePassXC, try allCollectionsLocked() else { return }
        try unlockDefaultCollection(provider)
    }

    /// Unlocks the default collection: silently where the provider allows (KWallet), else through
    /// the provider's dialog when a person is there; otherwise throws `.locked`.
    private func unlockDefaultCollection(_ provider: KeyringProvider) throws {
        var error = pwv_error()
        var status = pwv_secret_unlock_default(Int32(quietMode(provider).rawValue), timeoutMilliseconds, &error)
        if status == Int32(PWV_SECRET_NEEDS_PROMPT) {
            guard interaction.allowsDialogs else { throw KeyringError.locked(provider) }
            announce(provider, unlocking: true)
            status = pwv_secret_unlock_default(Int32(PWV_UNLOCK_PROMPT.rawValue), promptTimeout, &error)
            if status < 0 { throw failure(status: status, error: error, provider: provider, prompting: true) }
        }
        switch status {
        case Int32(PWV_SECRET_OK): return
        case Int32(PWV_SECRET_DISMISSED): throw KeyringError.refused(provider)
        case Int32(PWV_SECRET_NEEDS_PROMPT): throw KeyringError.locked(provider)
        default: throw failure(status: status, error: error, provider: provider)
        }
    }

    /// The unlock that never shows a dialog. KWallet answers Unlock with a prompt even while its
    /// wallet is open, and that prompt then completes at once without one (what `secret-tool lookup`
    /// meets after every login): there the prompt is performed. Anywhere else, or with KWallet's
    /// wallet closed (its prompt would ask for the wallet password), the prompt is withdrawn unseen.
    private func quietMode(_ provider: KeyringProvider) -> pwv_unlock_mode {
        guard provider == .kWallet else { return PWV_UNLOCK_SILENT }
        var error = pwv_error()
        return pwv_secret_kwallet_open(timeoutMilliseconds, &error) == 1 ? PWV_UNLOCK_PROMPT : PWV_UNLOCK_SILENT
    }

    // MARK: dialogs

    private var promptTimeout: UInt32 { UInt32(max(1, interaction.promptTimeoutMilliseconds)) }

    /// One line before the provider's dialog appears, so the person knows where to look.
    private func announce(_ provider: KeyringProvider, unlocking collection: Bool) {
        interaction.announce(msg("waiting for {1}: {2} in its window (up to {3})…", provider.name, provider.dialogRequest(unlocking: collection),
                                 KeyringError.seconds(interaction.promptTimeoutMilliseconds)))
    }

    /// The error for a failed call; a timeout while a person had the dialog means nobody answered it.
    private func failure(status: Int32, error: pwv_error, provider: KeyringProvider, prompting: Bool = false) -> KeyringError {
        let mapped = Self.keyringError(status: status, error: error, provider: provider)
        if prompting, case .timedOut = mapped {
            return .unanswered(provider, milliseconds: interaction.promptTimeoutMilliseconds)
        }
        return mapped
    }

    /// Calls `body` with the attributes as two parallel arrays of C strings that live for the call.
    /// All strings sit NUL-terminated in one Swift buffer, so nothing needs freeing.
    private static func withCAttributes<R>(
        _ attributes: [(String, String)],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>, Int) -> R
    ) -> R {
        precondition(!attributes.isEmpty, "an item without attributes would match every item")
        var storage: [CChar] = []
        var offsets: [(key: Int, value: Int)] = []
        for (key, value) in attributes {
            let keyOffset = storage.count
            storage += key.utf8CString
            offsets.append((keyOffset, storage.count))
            storage += value.utf8CString
        }
        return storage.withUnsafeBufferPointer { chars in
            let keys: [UnsafePointer<CChar>?] = offsets.map { chars.baseAddress! + $0.key }
            let values: [UnsafePointer<CChar>?] = offsets.map { chars.baseAddress! + $0.value }
            return keys.withUnsafeBufferPointer { k in
                values.withUnsafeBufferPointer { v in body(k.baseAddress!, v.baseAddress!, attributes.count) }
            }
        }
    }
}

// MARK: - Mapping failures

extension SecretServiceKeyring {
    /// The `KeyringError` for a failed shim call.
    static func keyringError(status: Int32, error: pwv_error, provider: KeyringProvider = .unknown) -> KeyringError {
        switch status {
        case Int32(PWV_SECRET_ERR_GLIB):
            var error = error
            let domain = withUnsafeBytes(of: &error.domain) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let message = withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let name = withUnsafeBytes(of: &error.dbus_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return keyringError(domain: domain, code: error.code, message: message, dbusName: name, provider: provider)
        case Int32(PWV_SECRET_ERR_TIMEOUT): return .timedOut(provider)
        case Int32(PWV_SECRET_ERR_NO_DEFAULT): return .noCollection(provider)
        case Int32(PWV_SECRET_ERR_TOO_BIG): return .failed(reason: phrase("the stored secret is too large"))
        case Int32(PWV_SECRET_ERR_FORMAT): return .failed(reason: phrase("the stored item is not a pwnvault secret"))
        case Int32(PWV_SECRET_ERR_RESOURCE): return .failed(reason: phrase("out of memory or threads"))
        default: return .failed(reason: phrase("invalid request to the keyring"))
        }
    }

    /// The `KeyringError` for a GError. The D-Bus error name decides first (what the provider
    /// meant, whatever GLib's domain); then only `secret-error` comes from a working Secret Service,
    /// and anything else (GIO, D-Bus) means there is no usable keyring here.
    static func keyringError(domain: String, code: Int32, message: String, dbusName: String = "",
                             provider: KeyringProvider = .unknown) -> KeyringError {
        switch dbusName {
        case "org.freedesktop.Secret.Error.NoSuchObject": return .noCollection(provider)
        case "org.freedesktop.Secret.Error.IsLocked": return .locked(provider)
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .unavailable(reason: phrase("no Secret Service provider on the session bus"))
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            return .timedOut(provider)
        default: break
        }
        switch (domain, code) {
        case ("secret-error", 2):                       // SECRET_ERROR_IS_LOCKED
            return .locked(provider)
        case ("secret-error", 3):                       // SECRET_ERROR_NO_SUCH_OBJECT
            return .noCollection(provider)
        case ("secret-error", _):
            return .failed(reason: cleanedReason(message, otherwise: "Secret Service error \(code)"))
        case ("g-io-error-quark", 19), ("g-io-error-quark", 24):   // G_IO_ERROR_CANCELLED, _TIMED_OUT
            return .timedOut(provider)
        case ("g-dbus-error-quark", 4), ("g-dbus-error-quark", 12), ("g-dbus-error-quark", 20):
            return .timedOut(provider)                  // NO_REPLY, TIMEOUT, TIMED_OUT
        case ("g-dbus-error-quark", 2), ("g-dbus-error-quark", 3):
            return .unavailable(reason: phrase("no Secret Service provider on the session bus"))   // SERVICE_UNKNOWN, NAME_HAS_NO_OWNER
        case ("g-dbus-error-quark", 19), ("g-dbus-error-quark", 41):
            return .noCollection(provider)              // UNKNOWN_METHOD, UNKNOWN_OBJECT
        case ("g-dbus-error-quark", 15):
            return .unavailable(reason: phrase("the D-Bus session bus went away"))  // DISCONNECTED
        case ("g-dbus-error-quark", 9), ("g-dbus-error-quark", 10):
            return .unavailable(reason: Messages.english { "\(provider.name) refused access" })  // ACCESS_DENIED, AUTH_FAILED; kept in English as every reason
        case ("g-io-error-quark", 36):
            // G_IO_ERROR_DBUS_ERROR: the provider answered with an error GLib has no name for (libsecret
            // strips the name of its item calls' errors): the provider's words, not a connection failure.
            return .failed(reason: cleanedReason(message, otherwise: "Secret Service error"))
        case ("g-io-error-quark", _):
            // "Cannot autolaunch D-Bus without X11 $DISPLAY" (nothing set), "Could not connect: …"
            // (an address that leads nowhere), "Cannot spawn a message bus …".
            if message.contains("autolaunch") || message.contains("spawn a message bus") {
                return .unavailable(reason: phrase("no D-Bus session"))
            }
            return .unavailable(reason: phrase("cannot connect to the D-Bus session bus"))
        default:
            return .unavailable(reason: cleanedReason(message, otherwise: "\(domain) \(code)"))
        }
    }

    /// A message fit for one line of "no usable keyring (…)": no D-Bus error name prefix, no
    /// control characters, lower-case start, no final period, at most 80 characters.
    static func cleanedReason(_ message: String, otherwise fallback: String) -> String {
        var text = Substring(message)
        if text.hasPrefix("GDBus.Error:"), let colon = text.dropFirst("GDBus.Error:".count).firstIndex(of: ":") {
            text = text[text.index(after: colon)...]
        }
        var cleaned = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .split(whereSeparator: { $0 == " " }).joined(separator: " ")
        while cleaned.hasSuffix(".") { cleaned.removeLast() }
        guard let first = cleaned.first else { return fallback }
        cleaned = first.lowercased() + cleaned.dropFirst()
        return cleaned.count > 80 ? String(cleaned.prefix(79)) + "…" : cleaned
    }
}

