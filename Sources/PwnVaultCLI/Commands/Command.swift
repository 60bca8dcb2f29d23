import PwnVaultCore

/// One subcommand: its spec (for the reader, help, man page and completions), its typed options, and
/// what it does.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    /// The struct `run` reads its options from (`NoOptions` when it has none): each command's own,
    /// nested in it as `Options`.
    static var optionsType: any CommandOptions.Type { get }
    static func run(_ context: Context) throws -> ExitStatus
}

/// The list of commands, in the order `pwnvault help` shows them.
enum Commands {
    static let all: [Command.Type] = [
        InitCommand.self, AddCommand.self, ImportCommand.self, RemoveCommand.self, ListCommand.self,
        CheckCommand.self, WatchCommand.self, AckCommand.self, DomainCommand.self, ShowCommand.self, RevealCommand.self, BreachesCommand.self, BreachCommand.self, UICommand.self, NotifyCommand.self,
        PasswordCommand.self, ConfigCommand.self, PasswdCommand.self, StatusCommand.self, DoctorCommand.self,
        ScheduleCommand.self, CompletionsCommand.self, HelpCommand.self,
    ]

    static func named(_ name: String) -> Command.Type? { all.first { $0.spec.name == name } }
    static func spec(named name: String) -> CommandSpec? { named(name)?.spec }
}
