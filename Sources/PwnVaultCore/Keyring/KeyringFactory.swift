/// Picks the keyring from the settings (`PWNVAULT_KEYRING`, `PWNVAULT_KEYRING_TIMEOUT_MS`; see `Settings`).
public enum KeyringFactory {
    /// `DisabledKeyring` when `PWNVAULT_KEYRING=none`, else a `SecretServiceKeyring` with the configured
    /// timeout. Never touches the keyring itself.
    /// `interaction` says whether the provider may show its own dialogs (a person at a terminal).
    public static func make(settings: Settings, interaction: KeyringInteraction = .unattended) -> Keyring {
        switch settings.keyring {
        case .none: return DisabledKeyring()
        case .auto: return SecretServiceKeyring(timeoutMilliseconds: UInt32(settings.keyringTimeoutMilliseconds),
                                                interaction: interaction)
        }
    }
}
