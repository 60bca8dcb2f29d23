import FoundationEssentials
import PwnVaultCore

/// `pwnvault show`: one account's latest result, like the result screen of a phone app.
enum ShowCommand: Command {
    static let refresh = OptionSpec("refresh", help: msg("refresh the cached breach catalog first"))

    static let spec = CommandSpec(
        name: "show",
        summary: msg("show the latest result of one account: its breaches, newest first"),
        usage: ["ACCOUNT|#ID [--refresh]"],
        discussion: msg("""
        A red "pwned in N breaches" or a green "no breach found", then each breach newest first with its
        date, title and what was exposed, and a per-year timeline when a year holds several. Sensitive
        breaches are counted here and named only in 'pwnvault reveal'. Under each breach not yet
        acknowledged, what to do at that site; what concerns you wherever it happened (phishing, SIM
        swaps, …) once after the list; then how many findings are left to acknowledge ('pwnvault ack'
        when dealt with), whichever check found them. Nothing is looked up: run 'pwnvault check' first.
        Breach details come from the cached public catalog.
        """),
        options: [refresh],
        positionals: 1...1,
        positionalHelp: [("ACCOUNT|#ID", msg("an account in the vault, or its id"))],
        examples: [("pwnvault show '#3'", msg("what happened to account #3")),
                   ("pwnvault show '#3' --json", msg("the same for a script"))])

    struct Report: Encodable {
        let id: Int
        let label: String?
        let status: CheckStatus
        let checkedAt: Date?
        let breachCount: Int
        let breaches: [BreachRendering.JSON]
        /// Sensitive breaches: counted, never named.
        let sensitiveBreaches: Int
        /// Breaches whose catalog entry could not be had: counted, not named.
        let unnamedBreaches: Int
        let pasteCount: Int?
        let error: String?
        /// The latest attempt, when it failed; the rest is the last good answer.
        let lastFailure: FailureRow?
        /// Findings (breaches, pastes, stealer-log websites) first seen by the latest answer, not acknowledged.
        let new: Int
        let unacknowledged: Int
        let stealerLogSites: Int
        /// Findings (breaches, pastes, stealer-log websites) HIBP no longer lists; their breaches are in
        /// `breaches` with `"listed": false` (or counted).
        let unlisted: Int
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let session = try context.openVault()
        guard let account = try AccountResolver.vaultAccounts([options.account], in: session.payload, phones: context.phoneNumbering, disclosure: context.console.disclosure).first else {
            throw UsageError.missingArgument(command: "show")
        }
        let result = account.result
        let catalog = result.breachCount == 0 && !account.unlistedFindings.contains(where: { $0.kind == .breach }) ? nil
            : HIBPServices(context).catalogIfAvailable(refresh: options.refresh, covering: [result])
        let c = context.console
        let disclosed = c.disclosure.breaches(of: account, catalog: catalog)
        let visible = disclosed.shown

        if context.json {
            try c.json(Report(id: account.id, label: c.label(account), status: result.status, checkedAt: result.checkedAt,
                              breachCount: disclosed.total - disclosed.unlistedCount,
                              breaches: visible.map { BreachRendering.JSON($0, in: disclosed) },
                              sensitiveBreaches: disclosed.sensitive, unnamedBreaches: disclosed.unnamed,
                              pasteCount: result.pasteCount, error: result.errorMessage,
                              lastFailure: FailureRow(result.lastFailure), new: account.newFindings.count,
                              unacknowledged: account.unacknowledgedFindings.count,
                              stealerLogSites: account.knownFindings.filter { $0.kind == .stealerLog }.count,
                              unlisted: account.unlistedFindings.count))
            return .success
        }

        c.paged(AccountResultText.lines(account, disclosed: disclosed, console: c), pager: context.settings.pager)
        return .success
    }
}

extension ShowCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `show`'s options, read once.
    struct Options: CommandOptions, Equatable {
        /// The account or `#ID` to show.
        let account: String
        let refresh: Bool

        init(_ arguments: ParsedArguments, settings: Settings) {
            account = arguments.positionals.first ?? ""
            refresh = arguments.has(ShowCommand.refresh)
        }
    }
}
