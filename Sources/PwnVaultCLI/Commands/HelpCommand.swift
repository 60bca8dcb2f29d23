import PwnVaultCore

/// `pwnvault help [COMMAND]`.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        summary: msg("show help for pwnvault or one of its commands"),
        usage: ["[COMMAND]"],
        positionals: 0...1,
        positionalHelp: [("COMMAND", msg("the command to explain, or a topic: environment, exit-status"))],
        examples: [("pwnvault help add", msg("how to add accounts")),
                   ("pwnvault help environment", msg("every environment variable pwnvault reads"))],
        usesVault: false,
        completes: (.commandsAndTopics, .nothing))

    static func run(_ context: Context) throws -> ExitStatus {
        guard let name = try Options(context).topic else {
            context.console.out(HelpText.overview(width: context.console.width))
            return .success
        }
        if let topic = HelpText.topics[name] {
            context.console.out(topic(context.console.width))
            return .success
        }
        guard let command = Commands.named(name) else {
            let topics = HelpText.topics.keys.filter { $0 != ManPage.topic }.sorted()
            let near = Suggest.closest(to: name, in: Commands.all.map { $0.spec.name } + topics)
            // The word is repeated only when it is a near miss of a real name (it may be an account).
            let listed = topics.joined(separator: ", ")
            throw InputError(near != nil && UsageError.isPlainWord(name) ? msg("no command or help topic '{1}'", name) : msg("no command or help topic by that name"),
                             hint: near.map { msg("did you mean '{1}'? 'pwnvault help' lists the commands; the topics are {2}", $0, listed) }
                                ?? msg("'pwnvault help' lists the commands; the topics are {1}", listed))
        }
        context.console.out(HelpText.command(command.spec, width: context.console.width))
        return .success
    }
}

extension HelpCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `help`'s argument, read once.
    struct Options: CommandOptions, Equatable {
        /// The command or topic asked about; nil: the overview.
        let topic: String?

        init(_ arguments: ParsedArguments, settings: Settings) { topic = arguments.positionals.first }
    }
}
