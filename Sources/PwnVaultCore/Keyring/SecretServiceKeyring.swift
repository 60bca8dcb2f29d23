// The only file that imports the libsecret shim. Every call into it is made here and its result
// mapped once, to a value or a `KeyringError`.
internal import CSecretShim

/// The desktop keyring, through the freedesktop Secret Service (GNOME Keyring, KeePassXC, KWallet)
/// and libsecret.
///
/// Items go into the default collection under the attributes of `KeyringItem.attributes`, so
/// `secret-tool search --all application pwnvault` lists them; the secret is kept as base64 text.
/// Every call gives up after `timeoutMilliseconds` (a stopped or wedged daemon otherwise blocks
/// forever). A locked keyring with no way to prompt answers lookups with "no such item", which must
/// never pass for a missing key: `store` and `clear` check first that the default collection is
/// unlocked, and `lookup` asks whenever it finds nothing it can read.
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

    /// A keyring whose calls give up after `timeoutMilliseconds` (at least 1).
    public init(timeoutMilliseconds: UInt32 = SecretServiceKeyring.defaultTimeoutMilliseconds) {
        precondition(timeoutMilliseconds > 0, "a keyring timeout must be positive")
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The secret stored under `item`, in secure memory, or nil when there is none.
    /// Throws `.locked` rather than returning nil when the default collection is locked.
    ///
    /// It makes the D-Bus calls `secret-tool lookup` makes; the lock state (three more round trips)
    /// is asked only when no readable item was found, which is when "locked" and "absent" look alike.
    public func lookup(_ item: KeyringItem) throws -> SecretBytes? {
        let buffer = SecretBytes(count: Self.maximumSecretBytes)   // wiped when it goes away
        var length = 0
        var error = pwv_error()
        let status = Self.withCAttributes(item.attributes) { keys, values, count in
            buffer.withUnsafeMutableBytes { out in
                pwv_secret_lookup(keys, values, count, out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  out.count, &length, timeoutMilliseconds, &error)
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
            return secret
        case Int32(PWV_SECRET_ABSENT):
            try requireUnlocked()
            return nil
        default:
            throw Self.keyringError(status: status, error: error)
        }
    }

    /// Stores `secret` (1 to `maximumSecretBytes` bytes) under `item`, replacing what was there.
    public func store(_ item: KeyringItem, secret: SecretBytes) throws {
        guard (1...Self.maximumSecretBytes).contains(secret.count) else {
            throw KeyringError.failed(reason: "a secret must hold 1 to \(Self.maximumSecretBytes) bytes")
        }
        // A locked default collection would otherwise be met with an unlock prompt that cannot be
        // shown, or, when there is no default collection, with an attempt to create one.
        try requireUnlocked()
        var error = pwv_error()
        let status = Self.withCAttributes(item.attributes) { keys, values, count in
            item.label.withCString { label in
                secret.withUnsafeBytes { bytes in
                    pwv_secret_store(keys, values, count, label, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                     bytes.count, timeoutMilliseconds, &error)
                }
            }
        }
        guard status == Int32(PWV_SECRET_OK) else { throw Self.keyringError(status: status, error: error) }
    }

    /// Removes the item; true when something was removed. A locked keyring throws `.locked`
    /// rather than answering "nothing removed".
    @discardableResult
    public func clear(_ item: KeyringItem) throws -> Bool {
        try requireUnlocked()
        var error = pwv_error()
        let status = Self.withCAttributes(item.attributes) { keys, values, count in
            pwv_secret_clear(keys, values, count, timeoutMilliseconds, &error)
        }
        switch status {
        case Int32(PWV_SECRET_OK): return true
        case Int32(PWV_SECRET_ABSENT): return false
        default: throw Self.keyringError(status: status, error: error)
        }
    }

    /// Whether the default collection is locked. Throws `.unavailable` when there is no Secret
    /// Service or no default collection, `.timedOut` when it does not answer.
    public func isLocked() throws -> Bool {
        var error = pwv_error()
        let status = pwv_secret_is_locked(timeoutMilliseconds, &error)
        switch status {
        case 0: return false
        case Int32(PWV_SECRET_LOCKED): return true
        default: throw Self.keyringError(status: status, error: error)
        }
    }

    private func requireUnlocked() throws {
        if try isLocked() { throw KeyringError.locked }
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
    static func keyringError(status: Int32, error: pwv_error) -> KeyringError {
        switch status {
        case Int32(PWV_SECRET_ERR_GLIB):
            var error = error
            let domain = withUnsafeBytes(of: &error.domain) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let message = withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return keyringError(domain: domain, code: error.code, message: message)
        case Int32(PWV_SECRET_ERR_TIMEOUT): return .timedOut
        case Int32(PWV_SECRET_ERR_NO_DEFAULT): return .unavailable(reason: "no default keyring collection")
        case Int32(PWV_SECRET_ERR_TOO_BIG): return .failed(reason: "the stored secret is too large")
        case Int32(PWV_SECRET_ERR_FORMAT): return .failed(reason: "the stored item is not a pwnvault secret")
        case Int32(PWV_SECRET_ERR_RESOURCE): return .failed(reason: "out of memory or threads")
        default: return .failed(reason: "invalid request to the keyring")
        }
    }

    /// The `KeyringError` for a GError. Only `secret-error` comes from a working Secret Service;
    /// anything else (GIO, D-Bus) means there is no usable keyring here.
    static func keyringError(domain: String, code: Int32, message: String) -> KeyringError {
        switch (domain, code) {
        case ("secret-error", 2):                       // SECRET_ERROR_IS_LOCKED
            return .locked
        case ("secret-error", _):
            return .failed(reason: cleanedReason(message, otherwise: "Secret Service error \(code)"))
        case ("g-io-error-quark", 19), ("g-io-error-quark", 24):   // G_IO_ERROR_CANCELLED, _TIMED_OUT
            return .timedOut
        case ("g-dbus-error-quark", 4), ("g-dbus-error-quark", 12), ("g-dbus-error-quark", 20):
            return .timedOut                            // NO_REPLY, TIMEOUT, TIMED_OUT
        case ("g-dbus-error-quark", 2), ("g-dbus-error-quark", 3):
            return .unavailable(reason: "no Secret Service daemon")   // SERVICE_UNKNOWN, NAME_HAS_NO_OWNER
        case ("g-dbus-error-quark", 19), ("g-dbus-error-quark", 41):
            return .unavailable(reason: "no default keyring collection")  // UNKNOWN_METHOD, _OBJECT
        case ("g-dbus-error-quark", 15):
            return .unavailable(reason: "the D-Bus session bus went away")  // DISCONNECTED
        case ("g-dbus-error-quark", 9), ("g-dbus-error-quark", 10):
            return .unavailable(reason: "the Secret Service refused access")  // ACCESS_DENIED, AUTH_FAILED
        case ("g-io-error-quark", _):
            // "Cannot autolaunch D-Bus without X11 $DISPLAY" (nothing set), "Could not connect: …"
            // (an address that leads nowhere), "Cannot spawn a message bus …".
            if message.contains("autolaunch") || message.contains("spawn a message bus") {
                return .unavailable(reason: "no D-Bus session")
            }
            return .unavailable(reason: "cannot connect to the D-Bus session bus")
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
