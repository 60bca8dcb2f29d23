import PwnVaultCore

/// `pwnvault config api-key`: keep the HIBP API key in the desktop keyring.
enum ConfigCommand: Command {
    static let spec = CommandSpec(
        name: "config",
        summary: "store (or remove) the HIBP API key in the desktop keyring",
        usage: ["api-key [--remove]"],
        discussion: """
        The key is read from the terminal without echo, or from the first line of stdin when stdin is not
        a terminal; never from the command line. It is kept in the desktop keyring and never printed.
        Scripts can set HIBP_API_KEY instead, which wins over the stored key.
        """,
        options: [OptionSpec("remove", help: "remove the stored key")],
        positionals: 1...1,
        positionalHelp: [("api-key", "the setting to change (the only one so far)")],
        examples: [("pwnvault config api-key", "paste the key at the prompt"),
                   ("pass show hibp | pwnvault config api-key", "take it from a password manager")],
        usesVault: false)

    struct Report: Encodable { let apiKey: String }

    static func run(_ context: Context) throws -> ExitStatus {
        let setting = context.arguments.positionals[0]
        guard setting == "api-key" else {
            throw UsageError.invalidValue(command: "config", option: "SETTING", reason: "the only setting is 'api-key'")
        }
        if context.arguments.has("remove") {
            let removed = try context.keyring.clear(.apiKey)
            if context.json { try context.console.json(Report(apiKey: removed ? "removed" : "absent")); return .success }
            context.console.out(removed ? "removed the HIBP API key from the keyring" : "no HIBP API key was stored")
            return .success
        }
        // A real terminal gets a no-echo prompt even with TERM=dumb (Emacs, IDEs): TERM only changes display.
        let key = TerminalCapabilities.stdinIsATTY
            ? try PassphrasePrompt.read(prompt: "HIBP API key (not shown): ")
            : try PassphrasePrompt.readLine(fd: 0)
        guard APIKey.isWellFormed(key) else {
            throw InputError("that is not an HIBP API key (32 hexadecimal characters); nothing was stored",
                             hint: "copy it from https://haveibeenpwned.com/API/Key")
        }
        try context.keyring.store(.apiKey, secret: key)
        if context.json { try context.console.json(Report(apiKey: "stored")); return .success }
        context.console.out("stored the HIBP API key in the keyring")
        return .success
    }
}
