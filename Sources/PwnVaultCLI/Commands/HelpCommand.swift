import PwnVaultCore

/// `pwnvault help [COMMAND]`.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        summary: "show help for pwnvault or one of its commands",
        usage: ["[COMMAND]"],
        positionals: 0...1,
        positionalHelp: [("COMMAND", "the command to explain, or a topic: environment, exit-status")],
        examples: [("pwnvault help add", "how to add accounts"),
                   ("pwnvault help environment", "every environment variable pwnvault reads")],
        usesVault: false)

    static func run(_ context: Context) throws -> ExitStatus {
        guard let name = context.arguments.positionals.first else {
            context.console.out(HelpText.overview(width: context.console.width))
            return .success
        }
        if let topic = HelpText.topics[name] {
            context.console.out(topic(context.console.width))
            return .success
        }
        guard let command = Commands.named(name) else {
            throw UsageError.unknownCommand(name, suggestion: Suggest.closest(to: name, in: Commands.all.map { $0.spec.name }))
        }
        context.console.out(HelpText.command(command.spec, width: context.console.width))
        return .success
    }
}
