/// `HIBP_API_KEY` as `Settings` read it: set and non-empty. A secret, so it never prints (its
/// description and mirror are redacted) and leaves only as `SecretBytes` (`secret()`).
public struct EnvironmentAPIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// In locked memory wiped on release, not in a `String` (the process environment keeps its own copy,
    /// which pwnvault cannot wipe).
    private let key: SecretBytes

    /// Nil when the variable is unset or empty.
    init?(_ text: String?) {
        guard let text, !text.isEmpty else { return nil }
        var bytes = Array(text.utf8)
        defer { Sodium.wipe(&bytes) }
        key = SecretBytes(copying: bytes)
    }

    /// The key in secret memory: a copy of its own for the caller.
    public func secret() -> SecretBytes {
        key.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    public static func == (a: EnvironmentAPIKey, b: EnvironmentAPIKey) -> Bool { a.key.isEqual(to: b.key) }

    public var description: String { "EnvironmentAPIKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
