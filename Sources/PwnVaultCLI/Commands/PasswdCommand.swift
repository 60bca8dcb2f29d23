import PwnVaultCore

/// `pwnvault passwd`: wrap the same vault key under a new passphrase.
enum PasswdCommand: Command {
    static let kdf = OptionSpec("kdf", value: "PRESET", help: msg("Argon2id cost for the new passphrase: interactive, moderate or sensitive (default: keep the current one)"))
    static let newPassphraseFile = OptionSpec("new-passphrase-file", value: "PATH", help: msg("read the new passphrase from the first line of PATH"))
    static let newPassphraseFd = OptionSpec("new-passphrase-fd", value: "N", help: msg("read the new passphrase from the first line of file descriptor N"))

    static let spec = CommandSpec(
        name: "passwd",
        summary: msg("change the vault's passphrase, after the current one (the vault key and the keyring item stay)"),
        usage: ["[--kdf PRESET] [--new-passphrase-file PATH | --new-passphrase-fd N] [--weak-passphrase-ok]"],
        discussion: msg("""
        Asks for the current passphrase (always, even when the keyring holds the key), then asks twice for the
        new one and re-wraps the vault key under it. The vault key stays, so the keyring item is
        unchanged; the file is saved like any change (a fresh payload nonce, and the previous file kept
        as vault.bak, which still opens with the old passphrase). Only the current passphrase can
        replace it: at an unlocked session the keyring opens the vault, but it does not stand in for the
        passphrase. The current passphrase is typed or given with --passphrase-file or --passphrase-fd;
        PWNVAULT_PASSPHRASE_FILE is not used here. The new passphrase is checked as 'init' checks it
        (zxcvbn at least 50 bits, not in Pwned Passwords); --weak-passphrase-ok skips both checks.
        """),
        options: [kdf,
                  newPassphraseFile,
                  newPassphraseFd,
                  NewPassphraseOption.spec],
        examples: [("pwnvault passwd", msg("change it interactively")),
                   ("pwnvault passwd --passphrase-fd 3 --new-passphrase-fd 4 3<old.txt 4<new.txt", msg("change it from a script"))])

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let newSource = options.newPassphrase
        // The current passphrase proves knowledge: an unlocked keyring must not be enough to replace
        // the passphrase that reveal asks for.
        let session: VaultSession
        do {
            session = try context.openVault(requirePassphrase: true)
        } catch VaultFormatError.wrongPassphrase {
            throw ProofOfKnowledgeError.wrongCurrentPassphrase
        }
        // Without --kdf the vault keeps its current cost (a sensitive vault is not quietly weakened).
        let kdf = options.kdf ?? session.header.kdf
        let newPassphrase = try NewPassphraseOption.read(from: newSource, prompt: msg("New passphrase: "), console: context.console,
                                                          check: NewPassphraseOption.check(context, weakOK: options.weakPassphraseOK), standardInput: context.standardInput)
        try session.changePassphrase(to: newPassphrase, kdf: kdf)
        struct Report: Encodable { let changed = true; let kdf: String? }
        if context.json { try context.console.json(Report(kdf: kdf.name)); return .success }
        context.console.out(msg("the passphrase of {1} was changed", session.location.displayPath))
        return .success
    }
}

extension PasswdCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `passwd`'s options, read and checked once (the current passphrase comes through the global
    /// options, as for every command).
    struct Options: CommandOptions, Equatable {
        /// Where the new passphrase comes from: --new-passphrase-fd, --new-passphrase-file, else typed
        /// (never PWNVAULT_PASSPHRASE_FILE, which holds the current one).
        let newPassphrase: PassphraseSource
        /// The new Argon2id cost; nil: the vault keeps its current one.
        let kdf: KDFParameters?
        let weakPassphraseOK: Bool

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            let fd = arguments.value(PasswdCommand.newPassphraseFd), file = arguments.value(PasswdCommand.newPassphraseFile)
            if let fd {
                guard let n = Int32(fd), n >= 0 else {
                    throw UsageError.invalidValue(command: "passwd", option: "--\(PasswdCommand.newPassphraseFd.name)",
                                                  reason: msg("not a file descriptor number"))
                }
                newPassphrase = .fileDescriptor(n)
            } else if let path = file {
                newPassphrase = .file(path)
            } else {
                newPassphrase = .terminal
            }
            kdf = try KDFOption.parameters(arguments, option: PasswdCommand.kdf, command: "passwd")
            weakPassphraseOK = NewPassphraseOption.given(arguments)
        }
    }
}
