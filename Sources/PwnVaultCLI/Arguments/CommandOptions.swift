import PwnVaultCore

/// A command's options, read from its parsed arguments and checked once, before the command does
/// anything (swift-argument-parser's `@Option`s and `validate()`): a value is parsed in one place, a
/// conflict between options is refused in one place, and the command's `run` reads only this struct.
///
/// Every option the command declares in its spec is read by the initializer, whether it was given or
/// not, and no other (the global options excepted): `CommandOptionsTests` holds each command to that.
protocol CommandOptions: Sendable {
    /// Reads the command's options and positionals; refuses a value or a combination the command cannot
    /// run with (`UsageError`, status 2, its hint the usage line). `settings` gives the defaults an option
    /// replaces (`PWNVAULT_MAX_WAIT`, the locale's region…).
    init(_ arguments: ParsedArguments, settings: Settings) throws
}

extension CommandOptions {
    /// The options of the run `context` describes.
    init(_ context: Context) throws { try self.init(context.arguments, settings: context.settings) }
}

/// The options of a command that has none of its own and takes no arguments.
struct NoOptions: CommandOptions {
    init(_ arguments: ParsedArguments, settings: Settings) {}
}
