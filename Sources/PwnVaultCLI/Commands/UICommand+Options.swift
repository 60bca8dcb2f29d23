import PwnVaultCore

extension UICommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// The ui's options, read and checked once. Its checks are paced as `check`'s: the same
    /// `PacingOptions`, read by the same initializer from the ui's `--rpm` (its own help text); the
    /// longest wait and the lookup come from the settings (the ui has no `--max-wait` or `--k-anonymity`).
    struct Options: CommandOptions, Equatable {
        /// Seconds without a key before the screen locks; 0 never.
        let idle: Int
        let pacing: PacingOptions

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            if let text = arguments.value(UICommand.idle) {
                guard let n = Int(text), (0...86_400).contains(n) else {
                    throw UsageError.invalidValue(command: "ui", option: "--idle", reason: msg("a whole number of seconds from 0 (never) to 86400"))
                }
                idle = n
            } else {
                idle = UICommand.defaultIdle
            }
            pacing = try PacingOptions(arguments, settings: settings, command: "ui", declared: [UICommand.rpm])
            // Nothing the ui shows can be written as JSON.
            if arguments.has(GlobalOptions.json) { throw UIRefusal.json }
        }
    }
}
