/// Picks the keyring from the environment.
///
/// | variable | meaning |
/// |---|---|
/// | `PWNVAULT_KEYRING` | `none`: never touch a keyring (`DisabledKeyring`); unset or anything else: the Secret Service |
/// | `PWNVAULT_KEYRING_TIMEOUT_MS` | how long each keyring call may take, 1…600000 ms; default 2000. Not a whole number in range: the default |
public enum KeyringFactory {
    /// `PWNVAULT_KEYRING`.
    public static let keyringVariable = "PWNVAULT_KEYRING"
    /// `PWNVAULT_KEYRING_TIMEOUT_MS`.
    public static let timeoutVariable = "PWNVAULT_KEYRING_TIMEOUT_MS"
    /// The longest timeout `PWNVAULT_KEYRING_TIMEOUT_MS` may ask for: 10 minutes.
    public static let maximumTimeoutMilliseconds: UInt32 = 600_000

    /// `DisabledKeyring` when `PWNVAULT_KEYRING=none`, else a `SecretServiceKeyring` with the
    /// timeout of `PWNVAULT_KEYRING_TIMEOUT_MS`. Never touches the keyring itself.
    public static func make(environment: [String: String]) -> Keyring {
        if environment[keyringVariable]?.lowercased() == "none" { return DisabledKeyring() }
        return SecretServiceKeyring(timeoutMilliseconds: timeoutMilliseconds(environment: environment))
    }

    /// The timeout `environment` asks for, or the default when it asks for none or nonsense.
    public static func timeoutMilliseconds(environment: [String: String]) -> UInt32 {
        guard let text = environment[timeoutVariable], !text.isEmpty, text.allSatisfy(\.isASCII),
              text.allSatisfy(\.isWholeNumber), let value = UInt32(text),
              (1...maximumTimeoutMilliseconds).contains(value)
        else { return SecretServiceKeyring.defaultTimeoutMilliseconds }
        return value
    }
}
