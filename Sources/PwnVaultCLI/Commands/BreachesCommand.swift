import FoundationEssentials
import PwnVaultCore

/// `pwnvault breaches`: browse the public breach catalog.
enum BreachesCommand: Command {
    static let search = OptionSpec("search", value: "TEXT", help: "only breaches whose name, title or domain contains TEXT")
    static let domain = OptionSpec("domain", value: "D", help: "only breaches of domain D")
    static let sort = OptionSpec("sort", value: "KEY", help: "date (newest first, default), size (largest first) or name")
    static let refresh = OptionSpec("refresh", help: "fetch the catalog again even if the cached copy is fresh")

    static let spec = CommandSpec(
        name: "breaches",
        summary: "browse the catalog of known breaches (public; no key needed)",
        usage: ["[--search TEXT] [--domain D] [--sort date|size|name] [--refresh]"],
        discussion: """
        The catalog is fetched from HIBP and cached for a day under $XDG_CACHE_HOME/pwnvault. On a
        terminal the list is shown through $PAGER (default: less). The catalog is public: it says
        nothing about your accounts.
        """,
        options: [search,
                  domain,
                  sort,
                  refresh],
        examples: [("pwnvault breaches --search adobe", "find a breach by name"),
                   ("pwnvault breaches --sort size | head", "the largest breaches")],
        usesVault: false)

    static func run(_ context: Context) throws -> ExitStatus {
        let args = context.arguments
        var sort = BreachSort.date
        if let s = args.value(Self.sort) {
            guard let parsed = BreachSort(rawValue: s) else {
                throw UsageError.invalidValue(command: "breaches", option: "--sort", reason: "expected date, size or name")
            }
            sort = parsed
        }
        let catalog = try HIBPServices(context).catalog(refresh: args.has(Self.refresh))
        let found = catalog.search(BreachQuery(search: args.value(Self.search), domain: args.value(Self.domain), sort: sort))
        let c = context.console
        if context.json {
            try c.json(found.map { BreachRendering.JSON($0) })
            return .success
        }
        if found.isEmpty {
            c.note("no breach in the catalog matches")
            return .success
        }
        let lines = BreachRendering(c).table(found)
        let footer = "\(found.count) of \(catalog.breaches.count) breaches; details: pwnvault breach NAME"
        if c.terminal.stdoutIsTerminal, lines.count > 20 {
            c.paged(lines + [footer], pager: context.settings.pager)
        } else {
            c.out(lines: lines)
            c.note(footer)
        }
        return .success
    }
}
