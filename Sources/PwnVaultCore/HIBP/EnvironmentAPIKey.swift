/// `HIBP_API_KEY` as `Settings` read it: set and non-empty. A secret, so it never prints (its
/// description and mirror are redacted) and leaves only as `SecretBytes` (`secret()`).
public struct EnvironmentAPIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let text: String

    /// Nil when the variable is unset or empty.
    init?(_ text: String?) {
        guard let text, !text.isEmpty else { return nil }
        self.text = text
    }

    /// The key in secret memory; the temporary copy of its bytes is wiped.
    public func secret() -> SecretBytes {
        var bytes = Array(text.utf8)
        defer { Sodium.wipe(&bytes) }
        return SecretBytes(copying: bytes)
    }

    public var description: String { "EnvironmentAPIKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
