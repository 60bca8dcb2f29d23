import PwnVaultCore

/// `pwnvault init`: a new vault, its key in the keyring and wrapped under a new passphrase.
enum InitCommand: Command {
    static let kdf = OptionSpec("kdf", value: "PRESET", help: msg("Argon2id cost: interactive, moderate (default) or sensitive"))

    static let spec = CommandSpec(
        name: "init",
        summary: msg("create a new, empty vault"),
        usage: ["[--kdf interactive|moderate|sensitive] [--weak-passphrase-ok]"],
        discussion: msg("""
        Asks twice for a new passphrase (on the terminal, without echo), creates a random vault key,
        stores it in the desktop keyring (Secret Service) and a passphrase-wrapped copy in the vault.
        The passphrase opens the vault where no keyring is usable, moves it to another machine, and
        unlocks 'reveal'. The passphrase must be strong (zxcvbn estimates at least 50 bits: four words
        picked at random pass, a keyboard walk or a well-known phrase does not) and must not be in Pwned
        Passwords (only the first 5 hex characters of its SHA-1 are sent, $PWNVAULT_PASSWORDS_URL); when
        that lookup fails, a line says it was not checked. --weak-passphrase-ok skips both. An existing vault is never overwritten, and neither is the backup of an earlier
        one (vault.bak): restore it or move it away first.
        """),
        options: [kdf,
                  NewPassphraseOption.spec],
        examples: [("pwnvault init", msg("create the default vault, asking for a passphrase")),
                   ("pwnvault init --vault ~/family.pwnvault --passphrase-fd 3 3<secret.txt",
                    msg("create a vault elsewhere, passphrase from a file descriptor"))])

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let kdf = options.kdf
        let location = try context.vaultLocation()
        // Both refusals come before the passphrase is asked: nothing to type for nothing.
        let store = VaultStore(location: location)
        if store.exists { throw VaultStoreError.alreadyExists(path: location.displayPath) }
        if store.backupExists {
            throw VaultStoreError.backupInTheWay(path: location.displayPath, backup: location.display(store.backupPath))
        }
        let source = try context.passphraseSource()
        let passphrase = try NewPassphraseOption.read(from: source, prompt: msg("New passphrase for {1}: ", location.displayPath), console: context.console,
                                           check: NewPassphraseOption.check(context, weakOK: options.weakPassphraseOK), standardInput: context.standardInput)
        let (session, problem) = try VaultSession.create(at: location, keyring: context.keyring, passphrase: passphrase, kdf: kdf)
        if let problem {
            context.console.note(msg("{1}; the vault opens with the passphrase only", problem.reason))
            if let hint = problem.hint { context.console.hint(hint) }
        }
        // What the next run will meet (KeePassXC asking to allow each run, a key that cannot be read back).
        for notice in session.notices { context.console.note(notice) }
        if context.json {
            // The keyring's note is worded here, in English whatever the language: scripts read it.
            try Messages.english { try context.console.json(StatusReport(session: session, keyringNote: problem?.reason)) }
        } else {
            // Wrapped to the window at spaces like every message (one line each in a pipe).
            let c = context.console
            c.out(lines: c.wrapped(msg("created an empty vault at {1}", location.displayPath)))
            c.out(lines: c.wrapped(problem == nil ? msg("the vault key is in {1}; keep the passphrase safe, it is the way back in elsewhere", context.keyring.provider().name)
                                                  : msg("keep the passphrase safe: without a keyring it is the only way in")))
            // The next two steps of the first hour, on stderr like every hint: stdout stays the result.
            let vault = context.arguments.value(GlobalOptions.vault).map { " --vault " + ScheduledWatch.shellQuoted($0) } ?? ""
            context.console.note(msg("next: pwnvault{1} add you@example.com --label Me   (or: pwnvault{1} import contacts.vcf)", vault))
            context.console.note(msg("then: pwnvault{1} check --all   (checks need an HIBP key: pwnvault config api-key)", vault))
        }
        return .success
    }
}

extension InitCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `init`'s options, read and checked once.
    struct Options: CommandOptions, Equatable {
        /// The Argon2id cost of the new vault (moderate unless --kdf says otherwise).
        let kdf: KDFParameters
        let weakPassphraseOK: Bool

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            kdf = try KDFOption.parameters(arguments, option: InitCommand.kdf, command: "init") ?? .moderate
            weakPassphraseOK = NewPassphraseOption.given(arguments)
        }
    }
}
