import FoundationEssentials
import PwnVaultCore

/// What a command runs with: the environment and settings, the console, the keyring, the clock,
/// and the global options. Built once per run by `CLI`; tests build their own.
struct Context {
    let commandName: String
    let arguments: ParsedArguments
    let environment: [String: String]
    let settings: Settings
    let console: Console
    let keyring: Keyring
    let now: @Sendable () -> Date
    /// The run's one HTTP transport (libcurl, loaded at the first request): every HIBP request goes through it.
    let transport: any HTTPTransport
    /// Why share mode is on (`--share`, `PWNVAULT_SHARE`, a detected shared terminal), or nil.
    let shareReason: ShareModeReason?
    /// The run's standard input: fd 0 in the binary; a descriptor of the test's own when a command line
    /// runs in-process (`CLI.run(arguments:environment:standardInput:…)`). Every read of stdin goes to it.
    var standardInput: Int32 = StandardStream.inputDescriptor

    /// Whether the run's stdin is a terminal device (TERM ignored): a person typing, so ask with echo off.
    var standardInputIsATTY: Bool { TerminalCapabilities.isATTY(standardInput) }

    var json: Bool { arguments.has(GlobalOptions.json) }
    /// Phone numbers read in the locale's region (`add` and `import` take `--region`: `RegionOption`).
    var phoneNumbering: PhoneNumbering { PhoneNumbering(region: settings.telephoneRegion) }

    /// The vault this run works on (`--vault`, `PWNVAULT_VAULT`, XDG default).
    func vaultLocation() throws -> VaultLocation {
        try VaultLocation.resolve(explicitPath: arguments.value(GlobalOptions.vault), settings: settings)
    }

    /// Where the passphrase comes from: `--passphrase-fd`, `--passphrase-file`, `PWNVAULT_PASSPHRASE_FILE`, the terminal.
    func passphraseSource(fdOption: OptionSpec = GlobalOptions.passphraseFD, fileOption: OptionSpec = GlobalOptions.passphraseFile,
                          useEnvironment: Bool = true) throws -> PassphraseSource {
        if let fd = arguments.value(fdOption) {
            guard let n = Int32(fd), n >= 0 else {
                throw UsageError.invalidValue(command: commandName, option: "--\(fdOption.name)", reason: msg("not a file descriptor number"))
            }
            return .fileDescriptor(n)
        }
        if let path = arguments.value(fileOption) { return .file(path) }
        if useEnvironment, let path = settings.passphraseFile { return .file(path) }
        return .terminal
    }

    /// The vault when the keyring opens it, else nil: nothing is asked and no passphrase file is read
    /// (shell completion calls this on every Tab).
    func openVaultWithoutAsking() -> VaultSession? {
        guard let location = try? vaultLocation() else { return nil }
        return try? VaultSession.open(at: location, keyring: keyring) { _ in throw TerminalError.noTerminal }
    }

    /// Opens the vault, asking for the passphrase only when the keyring cannot give the key.
    /// `requirePassphrase` (reveal, passwd): the keyring is skipped and `PWNVAULT_PASSPHRASE_FILE` is
    /// not used, so only a person typing, or an explicit option on this command line, unlocks it.
    /// `terminalPrompt` replaces the ordinary no-echo prompt when the passphrase is typed (reveal's
    /// private screen reads it while it follows focus).
    func openVault(requirePassphrase: Bool = false,
                   terminalPrompt: ((_ prompt: String) throws -> SecretBytes)? = nil) throws -> VaultSession {
        let location = try vaultLocation()
        let source = try passphraseSource(useEnvironment: !requirePassphrase)
        let session: VaultSession
        do {
            // On a terminal a mistyped passphrase is asked for again, three tries in all, in every command;
            // on reveal's private screen the refusal is said in the next prompt, not on stderr (which
            // would write over the alternate screen).
            let onScreen = PendingLine(), privateScreen = terminalPrompt != nil
            let retry = PromptRetry.forPerson(interactive: source == .terminal, say: { line in
                if privateScreen { onScreen.text = line } else { console.note(line) }
            })
            session = try VaultSession.open(at: location, keyring: keyring, requirePassphrase: requirePassphrase, retry: retry) { reason in
                // One line saying why the keyring was not used, unless the user turned it off on purpose.
                if let reason, settings.keyring != .none { console.note(msg("{1}; using the passphrase", reason.message)) }
                let prompt = msg("Passphrase for {1}: ", location.displayPath)
                if source == .terminal, let terminalPrompt {
                    defer { onScreen.text = nil }
                    return try terminalPrompt(onScreen.text.map { msg("{1}. {2}", $0, prompt) } ?? prompt)
                }
                return try source.read(prompt: prompt, standardInput: standardInput)
            }
        } catch TerminalError.noTerminal where requirePassphrase {
            throw ProofOfKnowledgeError.noTerminal(command: commandName)
        }
        for notice in session.notices { console.note(notice) }
        return session
    }

    /// The vault opened through the keyring alone, never asking for anything (for unattended runs
    /// and status lines): a locked or missing keyring is a `KeyringOnlyError`, status 5.
    func openVaultThroughKeyringOnly() throws -> VaultSession {
        try VaultSession.open(at: try vaultLocation(), keyring: keyring) { reason in
            throw KeyringOnlyError(bypass: reason, provider: keyring.provider())
        }
    }
}

/// A line said with the next prompt rather than on stderr (reveal's private screen).
private final class PendingLine: @unchecked Sendable {   // one thread: the command's
    var text: String?
}

/// An unattended run never prompts: when the keyring cannot open the vault, it stops with the keyring status.
struct KeyringOnlyError: UserFacingError {
    /// Why the keyring did not open the vault, if it said.
    let bypass: KeyringBypass?
    /// Computed when read, so that text built in `Messages.english` (a log, JSON) is English.
    var reason: String { bypass?.message ?? msg("the keyring did not open the vault") }
    /// Who serves the keyring, so the hint says what to change there.
    let provider: KeyringProvider
    var message: String { msg("{1}; watch never asks for a passphrase", reason) }
    var hint: String? {
        // The key is missing (or stale): a run on a terminal puts it there; but only once the keyring
        // is open, so a locked keyring gets the advice alone.
        bypass?.keyringLacksTheKey == true
            ? msg("run 'pwnvault list' once on a terminal, with the keyring unlocked, to put this vault's key there; then {1}", provider.unattendedAdvice)
            : provider.unattendedAdvice
    }
    var exitStatus: ExitStatus { .keyring }
}
