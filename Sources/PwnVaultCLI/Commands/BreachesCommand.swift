import FoundationEssentials
import PwnVaultCore

/// `pwnvault breaches`: browse the public breach catalog.
enum BreachesCommand: Command {
    static let search = OptionSpec("search", value: "TEXT", help: msg("only breaches whose name, title or domain contains TEXT"))
    static let domain = OptionSpec("domain", value: "D", help: msg("only breaches of domain D"))
    static let sort = OptionSpec("sort", value: "KEY", help: msg("date (newest first, default), size (largest first) or name"))
    static let refresh = OptionSpec("refresh", help: msg("fetch the catalog again even if the cached copy is fresh"))

    static let spec = CommandSpec(
        name: "breaches",
        summary: msg("browse the catalog of known breaches (public; no key needed)"),
        usage: ["[--search TEXT] [--domain D] [--sort date|size|name] [--refresh]"],
        discussion: msg("""
        The catalog is fetched from HIBP and cached for a day under $XDG_CACHE_HOME/pwnvault. On a
        terminal the list is shown through $PAGER (default: less). The catalog is public: it says
        nothing about your accounts.
        """),
        options: [search,
                  domain,
                  sort,
                  refresh],
        examples: [("pwnvault breaches --search adobe", msg("find a breach by name")),
                   ("pwnvault breaches --sort size | head", msg("the largest breaches"))],
        usesVault: false)

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let catalog = try HIBPServices(context).catalog(refresh: options.refresh)
        let found = catalog.search(options.query)
        let c = context.console
        if context.json {
            try c.json(found.map { BreachRendering.JSON($0) })
            return .success
        }
        if found.isEmpty {
            c.note(msg("no breach in the catalog matches"))
            return .success
        }
        let lines = BreachRendering(c).table(found)
        let footer = msg(one: "{1} of {2} breach; details: pwnvault breach NAME", many: "{1} of {2} breaches; details: pwnvault breach NAME",
                         count: catalog.breaches.count, found.count, catalog.breaches.count)
        if c.terminal.stdoutIsTerminal, lines.count > 20 {
            c.paged(lines + [footer], pager: context.settings.pager)
        } else {
            c.out(lines: lines)
            c.note(footer)
        }
        return .success
    }
}

extension BreachesCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `breaches`'s options, read and checked once.
    struct Options: CommandOptions, Equatable {
        /// What to show of the catalog, in which order.
        let query: BreachQuery
        let refresh: Bool

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            let search = arguments.value(BreachesCommand.search), domain = arguments.value(BreachesCommand.domain)
            var sort = BreachSort.date
            if let s = arguments.value(BreachesCommand.sort) {
                guard let parsed = BreachSort(rawValue: s) else {
                    throw UsageError.invalidValue(command: "breaches", option: "--sort", reason: msg("expected date, size or name"))
                }
                sort = parsed
            }
            refresh = arguments.has(BreachesCommand.refresh)
            query = BreachQuery(search: search, domain: domain, sort: sort)
        }
    }
}
