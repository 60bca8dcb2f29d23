import PwnVaultCore

extension CheckCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `check`'s options, read and checked once. `watch` and the ui reuse its pacing (`PacingOptions`).
    struct Options: CommandOptions, Equatable {
        /// The accounts and `#ID`s given (none with --all).
        let accounts: [String]
        let all: Bool
        let force: Bool
        let pastes: Bool
        let stealerLogs: Bool
        let save: Bool
        let refresh: Bool
        let pacing: PacingOptions
        let notify: NotifyOption

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            accounts = arguments.positionals
            all = arguments.has(CheckCommand.all)
            force = arguments.has(CheckCommand.force)
            pastes = arguments.has(CheckCommand.pastes)
            stealerLogs = arguments.has(CheckCommand.stealerLogs)
            save = arguments.has(CheckCommand.save)
            refresh = arguments.has(CheckCommand.refresh)
            if all && !accounts.isEmpty {
                throw UsageError.conflicting(command: "check", reason: msg("--all checks the whole vault: give either --all or accounts, not both"))
            }
            if !all && accounts.isEmpty { throw UsageError.missingArgument(command: "check") }
            if force && !all { throw UsageError.conflicting(command: "check", reason: msg("--force goes with --all")) }
            pacing = try PacingOptions(arguments, settings: settings, command: "check")
            try pacing.refuseWholeAddressOptions(pastes || stealerLogs, command: "check")
            notify = try NotifyOption(arguments, command: "check")
        }

        /// Whether the vault is opened even when it does not exist yet (an error then): the accounts come
        /// from it, or go into it.
        var needsVault: Bool { all || save || accounts.contains { $0.hasPrefix("#") } }
    }
}
