import FoundationEssentials
import PwnVaultCore

/// `pwnvault show`: one account's latest result, like the result screen of a phone app.
enum ShowCommand: Command {
    static let refresh = OptionSpec("refresh", help: "refresh the cached breach catalog first")

    static let spec = CommandSpec(
        name: "show",
        summary: "show the latest result of one account: its breaches, newest first",
        usage: ["ACCOUNT|#ID [--refresh]"],
        discussion: """
        A red "pwned in N breaches" or a green "no breach found", then each breach newest first with its
        date, title and what was exposed, and a per-year timeline. Sensitive breaches are counted but not
        named. Breaches the latest check found for the first time are marked NEW; under each breach not
        yet acknowledged, what to do about it, one line per kind of data exposed ('pwnvault ack' when
        dealt with). Nothing is looked up: run 'pwnvault check' first. Breach details come from the
        cached public catalog.
        """,
        options: [refresh],
        positionals: 1...1,
        positionalHelp: [("ACCOUNT|#ID", "an account in the vault, or its id")],
        examples: [("pwnvault show '#3'", "what happened to account #3"),
                   ("pwnvault show '#3' --json", "the same for a script")])

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
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let session = try context.openVault()
        guard let account = try AccountResolver.vaultAccounts(context.arguments.positionals, in: session.payload, phones: context.phoneNumbering, disclosure: context.console.disclosure).first else {
            throw UsageError.missingArgument(command: "show")
        }
        let result = account.result
        let catalog = result.breachCount == 0 ? nil
            : HIBPServices(context).catalogIfAvailable(refresh: context.arguments.has(Self.refresh), covering: [result])
        let c = context.console
        let disclosed = c.disclosure.breaches(of: account, catalog: catalog)
        let visible = disclosed.shown

        if context.json {
            try c.json(Report(id: account.id, label: c.label(account), status: result.status, checkedAt: result.checkedAt,
                              breachCount: disclosed.total,
                              breaches: visible.map { BreachRendering.JSON($0, in: disclosed) },
                              sensitiveBreaches: disclosed.sensitive, unnamedBreaches: disclosed.unnamed,
                              pasteCount: result.pasteCount, error: result.errorMessage,
                              lastFailure: FailureRow(result.lastFailure), new: account.newFindings.count,
                              unacknowledged: account.unacknowledgedFindings.count,
                              stealerLogSites: account.knownFindings.filter { $0.kind == .stealerLog }.count))
            return .success
        }

        c.paged(lines(account, disclosed: disclosed, console: c), pager: context.settings.pager)
        return .success
    }

    /// The result as text, one line each: what `show` prints on a terminal, and the result screen of `ui`.
    static func lines(_ account: Account, disclosed: DisclosedBreaches, console c: Console) -> [String] {
        let result = account.result
        let visible = disclosed.shown
        var out: [String] = []
        out.append(c.heading(account))
        switch result.status {
        case .neverChecked:
            out.append("never checked; run: pwnvault check '#\(account.id)'")
            return out
        case .error:
            let when = result.lastFailure.map { " (\(StateText.time($0.at)))" } ?? ""
            out.append(c.styled("the last check failed\(when): \(result.errorMessage ?? "unknown error")", .yellow))
        case .clean:
            out.append(c.styled(c.colors ? " NO BREACH FOUND " : "no breach found", .green))
        case .breached:
            let n = disclosed.total
            out.append(c.styled(c.colors ? " PWNED IN \(n) BREACH\(n == 1 ? "" : "ES") " : "pwned in \(n) breach\(n == 1 ? "" : "es")", .red))
        }
        if let at = result.checkedAt { out.append(c.styled("checked \(StateText.time(at))", .dim)) }
        if result.hasAnswer, let failure = result.lastFailure {
            // The saved answer stays; say that it is older than the latest attempt, and why that failed.
            out.append(c.styled("the latest check failed (\(StateText.time(failure.at))): \(failure.message); "
                           + "this is the result of \(result.checkedAt.map(StateText.time) ?? "an earlier check")", .yellow))
        }
        let fresh = account.newFindings
        // Pastes found by an earlier check with --pastes stay counted when the latest one did not ask.
        let pastes = max(result.pasteCount ?? 0, account.knownFindings.filter { $0.kind == .paste }.count)
        if pastes > 0 {
            let n = fresh.filter { $0.kind == .paste }.count
            out.append("also found in \(pastes) paste\(pastes == 1 ? "" : "s")" + (n > 0 ? " (\(n) NEW)" : ""))
        }
        let sites = account.knownFindings.filter { $0.kind == .stealerLog }.count
        if sites > 0 {
            let n = fresh.filter { $0.kind == .stealerLog }.count
            out.append("in the info-stealer logs of \(sites) website\(sites == 1 ? "" : "s")" + (n > 0 ? " (\(n) NEW)" : "")
                  + ": change the passwords saved on the infected device and check it for malware")
        }
        if !visible.isEmpty {
            out.append("")
            let rendering = BreachRendering(c)
            for b in visible { out += rendering.entry(b, in: disclosed) }
        }
        out += disclosed.countedNotes
        let waiting = account.unacknowledgedFindings
        if !waiting.isEmpty {
            // What the count is made of, each part listed above: breaches, pastes, stealer-log websites.
            let parts = FindingKind.allCases.compactMap { kind -> String? in
                let n = waiting.filter { $0.kind == kind }.count
                guard n > 0 else { return nil }
                switch kind {
                case .breach: return "\(n) breach\(n == 1 ? "" : "es")"
                case .paste: return "\(n) paste\(n == 1 ? "" : "s")"
                case .stealerLog: return "\(n) stealer-log website\(n == 1 ? "" : "s")"
                }
            }
            out.append("")
            out += c.wrapped("\(waiting.count) finding\(waiting.count == 1 ? "" : "s") not acknowledged (\(parts.joined(separator: ", "))); "
                             + "when dealt with: pwnvault ack '#\(account.id)'")
        }
        let years = Dictionary(grouping: visible.compactMap { $0.breachDate?.year }, by: { $0 }).mapValues(\.count)
        if years.count > 1 {
            out.append("")
            out.append("timeline")
            for year in years.keys.sorted() {
                out.append("  \(year)  " + String(repeating: "■", count: years[year]!) + " \(years[year]!)")
            }
        }
        return out
    }
}
