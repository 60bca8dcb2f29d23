import PwnVaultCore

extension WatchCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `watch`'s options, read and checked once, without side effects (a refusal is also recorded
    /// beside the vault, in English: `run` reads them again for that). Paced as `check` is.
    struct Options: CommandOptions, Equatable {
        /// Every account is checked at least this often, in days.
        let fullEvery: Int
        let notify: NotifyOption
        let pastes: Bool
        let stealerLogs: Bool
        let pacing: PacingOptions

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            pastes = arguments.has(WatchCommand.pastes)
            stealerLogs = arguments.has(WatchCommand.stealerLogs)
            if let text = arguments.value(WatchCommand.fullEvery) {
                guard let n = Int(text), (1...365).contains(n) else {
                    throw UsageError.invalidValue(command: "watch", option: "--full-every", reason: msg("a whole number of days from 1 to 365"))
                }
                fullEvery = n
            } else {
                fullEvery = WatchCommand.defaultFullEvery
            }
            pacing = try PacingOptions(arguments, settings: settings, command: "watch")
            try pacing.refuseWholeAddressOptions(pastes || stealerLogs, command: "watch")
            notify = try NotifyOption(arguments, command: "watch")
        }
    }
}
