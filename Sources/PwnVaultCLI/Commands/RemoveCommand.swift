import PwnVaultCore

/// `pwnvault remove`: stop watching accounts. All or nothing.
enum RemoveCommand: Command {
    static let yes = OptionSpec("yes", short: "y", help: msg("remove without asking"))

    static let spec = CommandSpec(
        name: "remove",
        summary: msg("stop watching accounts (by #ID or by the account itself)"),
        usage: ["ACCOUNT|#ID... [--yes]"],
        discussion: msg("""
        Shows what it will remove (the masked account and its label) and asks on the terminal first;
        --yes skips the question. Without a terminal (a script, a pipe) it needs --yes. If any of the
        accounts is not in the vault, nothing is removed. Ids are never reused.
        """),
        options: [yes],
        positionals: 1...Int.max,
        positionalHelp: [("ACCOUNT|#ID", msg("an account as added, or its id from 'pwnvault list' (#3, 3 or %3)"))],
        examples: [("pwnvault remove '#3'", msg("remove account #3 after saying yes (quote the # in most shells)")),
                   ("pwnvault remove 3 --yes", msg("the same in a script")),
                   ("pwnvault remove alice@example.com", msg("remove by the account itself"))])

    struct Report: Encodable { let removed: [Int] }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let c = context.console
        let session = try context.openVault()
        let chosen = try AccountResolver.vaultAccounts(options.accounts, in: session.payload, phones: context.phoneNumbering, disclosure: c.disclosure)
        if !options.yes {
            guard let question = TerminalQuestion.onTerminal(input: context.standardInput) else { throw RemoveRefusal.noTerminal }
            // The conversation happens on the terminal: masked there, or labels and ids in share mode.
            let onTerminal = Disclosure(policy: DisplayPolicy(terminal: true, shareMode: c.policy.shareMode))
            let n = chosen.count
            let intro = msg(one: "pwnvault will stop watching this account:", many: "pwnvault will stop watching these {1} accounts:", count: n, n)
            guard question.confirm([intro] + chosen.map { "  " + onTerminal.heading($0) },
                                   question: msg(one: "Remove it? [y/N] ", many: "Remove them? [y/N] ", count: n)) else {
                c.note(msg("nothing was removed"))
                return .success
            }
        }
        let ids = Set(chosen.map(\.id))
        let removed: [Int] = try session.update { payload in
            let present = payload.accounts.filter { ids.contains($0.id) }.map(\.id)
            payload.accounts.removeAll { ids.contains($0.id) }
            return present
        }
        if context.json {
            try c.json(Report(removed: removed))
        } else {
            for account in chosen where removed.contains(account.id) { c.out(msg("removed {1}", c.heading(account))) }
        }
        return .success
    }
}

/// `remove` without `--yes` where nobody can be asked.
enum RemoveRefusal: UserFacingError {
    case noTerminal
    var message: String { msg("refusing to remove accounts without asking, and there is no terminal to ask on") }
    var hint: String? { msg("add --yes to remove them without a question") }
    var exitStatus: ExitStatus { .usage }
}

extension RemoveCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `remove`'s options, read once.
    struct Options: CommandOptions, Equatable {
        /// The accounts or `#ID`s to remove.
        let accounts: [String]
        let yes: Bool

        init(_ arguments: ParsedArguments, settings: Settings) {
            accounts = arguments.positionals
            yes = arguments.has(RemoveCommand.yes)
        }
    }
}
