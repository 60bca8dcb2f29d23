import FoundationEssentials
import PwnVaultCore

/// `pwnvault breach NAME`: everything the catalog says about one breach, as plain text.
enum BreachCommand: Command {
    static let refresh = OptionSpec("refresh", help: msg("refresh the cached breach catalog first"))

    static let spec = CommandSpec(
        name: "breach",
        summary: msg("explain one breach: dates, size, what was exposed, flags and description"),
        usage: ["NAME|TITLE [--refresh]"],
        options: [refresh],
        positionals: 1...1,
        positionalHelp: [("NAME|TITLE", msg("the breach's name or title, as 'pwnvault breaches', 'show' and 'check' print them (case-insensitive)"))],
        examples: [("pwnvault breach Adobe", msg("what the Adobe breach exposed")),
                   ("pwnvault breach 'River City Media Spam List'", msg("a breach by the title 'show' printed"))],
        usesVault: false,
        completes: (.breaches, .breaches))

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let name = options.name
        let catalog = try HIBPServices(context).catalog(refresh: options.refresh)
        guard let b = catalog.breach(namedOrTitled: name) else {
            let suggestion = Suggest.closest(to: name, in: catalog.breaches.map(\.name) + catalog.breaches.map(\.title))
            // What was typed is never echoed: it may be an account, or a sensitive breach's name on a
            // shared screen. A suggestion is the public catalog's own text.
            throw InputError(msg("no breach by that name or title in the catalog"),
                             hint: suggestion.map { msg("did you mean '{1}'?", Sanitizer.singleLine($0)) } ?? msg("search with 'pwnvault breaches --search TEXT'"))
        }
        let c = context.console
        if context.json {
            try c.json(BreachRendering.JSON(b, advice: true))
        } else {
            BreachRendering(c).details(b).forEach { c.out($0) }
        }
        return .success
    }
}

extension BreachCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `breach`'s options, read once.
    struct Options: CommandOptions, Equatable {
        /// The breach's name or title, as typed.
        let name: String
        let refresh: Bool

        init(_ arguments: ParsedArguments, settings: Settings) {
            name = arguments.positionals.first ?? ""
            refresh = arguments.has(BreachCommand.refresh)
        }
    }
}
