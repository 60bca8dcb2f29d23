import PwnVaultCore

/// `--weak-passphrase-ok` of `init` and `passwd`, and the check it turns off (`NewPassphraseCheck`:
/// zxcvbn, then Pwned Passwords by k-anonymity at $PWNVAULT_PASSWORDS_URL).
enum NewPassphraseOption {
    static let name = "weak-passphrase-ok"

    static let spec = OptionSpec(name, help: "use the new passphrase even if it is weak or seen in breaches (skips both checks; nothing is sent)")

    /// The check for `context`, nil with --weak-passphrase-ok.
    static func check(_ context: Context) -> NewPassphraseCheck? {
        if context.arguments.has(name) { return nil }
        let settings = context.settings
        let transport = CurlTransport(maxBodyBytes: PwnedPasswordsClient.maxBodyBytes,
                                      timeout: .seconds(settings.httpTimeoutSeconds), maxConnectionsPerHost: 1)
        let client = PwnedPasswordsClient(baseURL: settings.passwordsBaseURL, version: CLI.version, transport: transport)
        return NewPassphraseCheck(lookup: { hash in try blocking { try await client.timesSeen(hash) } })
    }
}
