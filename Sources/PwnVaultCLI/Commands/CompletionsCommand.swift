import PwnVaultCore

/// `pwnvault completions SHELL`: prints the completion script for bash, zsh or fish.
enum CompletionsCommand: Command {
    static let listOption = OptionSpec("list", value: "WHAT", help: msg("print what completion offers, one per line: ids (#ID, a tab, the label) or breaches (names, sensitive ones left out; with an account, its breaches)"))

    static let spec = CommandSpec(
        name: "completions",
        summary: msg("print the shell completion script for bash, zsh or fish"),
        usage: ["bash|zsh|fish", "--list ids|breaches [ACCOUNT|#ID]"],
        discussion: msg("""
        The script completes commands (also after global options such as --vault), their options and the
        values of --kdf, --sort and --status, file names where a file is expected (options that take a
        PATH or FILE, import's CONTACTS.vcf), account ids (with their labels where the shell shows
        descriptions, never the accounts), breach names, and after 'ack ID' the breaches that account
        was found in (never sensitive ones). Ids and an account's breaches come from the vault only
        when the keyring opens it: completion never asks for a passphrase. Breach names come from the
        cached catalog: completion never goes online. 'make install' installs all three scripts; to try one
        in the current shell, source it as shown below.
        """),
        options: [listOption],
        positionals: 0...1,
        positionalHelp: [("SHELL", msg("bash, zsh or fish")), ("ACCOUNT|#ID", msg("with --list breaches: only that account's breaches"))],
        examples: [("source <(pwnvault completions bash)", msg("complete pwnvault in this bash session")),
                   ("pwnvault completions zsh > ~/.zfunc/_pwnvault", msg("install for zsh (with ~/.zfunc in $fpath)")),
                   ("pwnvault completions fish > ~/.config/fish/completions/pwnvault.fish", msg("install for fish"))],
        usesVault: false, unattended: true,
        completes: (.words(Completions.Shell.allCases.map(\.rawValue)), .nothing))

    static func run(_ context: Context) throws -> ExitStatus {
        let shell: Completions.Shell
        switch try Options(context).mode {
        case let .list(what, account):
            try list(what, account: account, context: context)
            return .success
        case let .script(chosen): shell = chosen
        }
        // The script ends with a newline; `out` adds one.
        context.console.out(String(Completions.script(for: shell).dropLast()))
        return .success
    }

    /// What the scripts complete from: ids with labels (through the gate, so never an account) when
    /// the keyring opens the vault, breach names from the cached catalog. Nothing is asked, nothing
    /// fetched; what cannot be had is simply not offered.
    static func list(_ what: Options.Listed, account: String?, context: Context) throws {
        let c = context.console
        switch what {
        case .breaches where account != nil:
            // An account's own breaches (ack's arguments): what `show` names, so never a sensitive one or
            // one the cached catalog cannot vouch for. An account that does not resolve offers nothing.
            guard let account, let session = context.openVaultWithoutAsking(),
                  let found = try? AccountResolver.vaultAccounts([account], in: session.payload, phones: context.phoneNumbering,
                                                                  disclosure: c.disclosure).first else { return }
            for b in c.disclosure.breaches(of: found, catalog: HIBPServices(context).cachedCatalog()).shown {
                c.out(Sanitizer.singleLine(b.name))
            }
        case .ids:
            guard let session = context.openVaultWithoutAsking() else { return }
            // By number (1 2 10, not 1 10 2): the shells are told to keep this order.
            for a in session.payload.accounts.sorted(by: { $0.id < $1.id }) {
                c.out("#\(a.id)" + (c.label(a).map { "\t" + $0.replacingLiterally("\t", with: " ") } ?? ""))
            }
        case .breaches:
            // Sensitive breaches are not offered: a completed name lands in the shell's history.
            for b in HIBPServices(context).cachedCatalog()?.breaches ?? [] where !b.isSensitive { c.out(Sanitizer.singleLine(b.name)) }
        }
    }
}

extension CompletionsCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `completions`' options, read and checked once: a shell's script, or (--list) what it completes from.
    struct Options: CommandOptions, Equatable {
        /// What `--list` prints.
        enum Listed: String, Equatable, Sendable { case ids, breaches }
        enum Mode: Equatable, Sendable {
            case script(Completions.Shell)
            /// With `account`: that account's breaches (ack's arguments).
            case list(Listed, account: String?)
        }
        let mode: Mode

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            let command = CompletionsCommand.spec.name
            let word = arguments.positionals.first
            if let what = arguments.value(CompletionsCommand.listOption) {
                guard let listed = Listed(rawValue: what) else {
                    throw UsageError.invalidValue(command: command, option: "--list", reason: msg("expected ids or breaches"))
                }
                if listed == .ids, word != nil {
                    throw UsageError.conflicting(command: command, reason: msg("--list ids takes no account"))
                }
                mode = .list(listed, account: word)
                return
            }
            guard let name = word else { throw UsageError.missingArgument(command: command) }
            guard let shell = Completions.Shell(rawValue: name) else {
                throw InputError(msg("unknown shell '{1}': completions exist for bash, zsh and fish", Sanitizer.singleLine(name)),
                                 hint: msg("usage: {1}", HelpText.usageLine(CompletionsCommand.spec)))
            }
            mode = .script(shell)
        }
    }
}
