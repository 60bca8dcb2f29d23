import FoundationEssentials
import PwnVaultCore

/// `pwnvault ack`: marks findings as dealt with, so they are no longer new and `check` exits 0.
enum AckCommand: Command {
    static let all = OptionSpec("all", help: msg("acknowledge every finding of every account"))
    static let yes = OptionSpec("yes", short: "y", help: msg("with --all: acknowledge without asking"))

    static let spec = CommandSpec(
        name: "ack",
        summary: msg("acknowledge an account's findings: dealt with, nothing left to acknowledge (check exits 0)"),
        usage: ["ACCOUNT|#ID [BREACH...]", "--all [--yes]"],
        discussion: msg("""
        Acknowledges what an account was found in: every breach, paste and stealer-log website, or only
        the breaches named (by name or title, as 'pwnvault show' and 'pwnvault breach' print them,
        case-insensitive). Acknowledged findings lose their NEW mark and their advice, and no longer make
        'check' exit with status 1. A breach found later is new again. --all acknowledges everything in
        the vault; on a terminal it first says how much and asks (--yes skips the question; without a
        terminal, as in a script, it does not ask). Naming a sensitive breach, or one the breach catalog does not know, needs the
        passphrase (typed, or --passphrase-file or --passphrase-fd; not the keyring or
        PWNVAULT_PASSPHRASE_FILE), as reveal does: without it the answer would tell whether the account
        is in that breach. Breach names typed are never repeated in the answer.
        """),
        options: [all, yes],
        positionals: 0...Int.max,
        positionalHelp: [("ACCOUNT|#ID", msg("an account in the vault, or its id")),
                         ("BREACH", msg("a breach name or title; without any, all of the account's findings"))],
        examples: [("pwnvault ack '#3'", msg("account #3: everything found so far is dealt with")),
                   ("pwnvault ack '#3' Adobe", msg("only the Adobe breach")),
                   ("pwnvault ack '#3' 'Hush Clinic'", msg("a sensitive breach: asks for the passphrase")),
                   ("pwnvault ack --all", msg("the whole vault"))],
        completes: (.ids, .findings))

    struct Row: Encodable { let id: Int; let acknowledged: Int }
    struct Report: Encodable { let accounts: [Row]; let acknowledged: Int }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let all = options.all
        let names = try breachNames(options.breaches, context: context)
        let session: VaultSession
        do {
            session = try context.openVault(requirePassphrase: names.needPassphrase)
        } catch ProofOfKnowledgeError.noTerminal {
            throw ProofOfKnowledgeError.breachNeedsPassphrase
        }
        // The whole vault at once, typed at a terminal: said in numbers and asked, as 'remove' asks.
        if all, !options.yes, !context.json, context.console.terminal.stdinIsTerminal,
           context.console.terminal.stderrIsTerminal {
            let waiting = session.payload.accounts.map { $0.unacknowledgedFindings.count }
            let findings = waiting.reduce(0, +), accounts = waiting.filter { $0 > 0 }.count
            if findings > 0, let question = TerminalQuestion.onTerminal(input: context.standardInput) {
                let intro = msg(one: "{1} finding not acknowledged, in {2} of the vault's accounts",
                                many: "{1} findings not acknowledged, in {2} of the vault's accounts", count: findings, findings, accounts)
                guard question.confirm([intro], question: msg("Acknowledge them all? [y/N] ")) else {
                    context.console.note(msg("nothing was acknowledged"))
                    return .success
                }
            }
        }
        let now = context.now()
        let rows: [Row] = try session.update { payload in
            if all {
                return payload.accounts.indices.map { i in
                    Row(id: payload.accounts[i].id, acknowledged: payload.accounts[i].acknowledge(at: now))
                }
            }
            guard let account = try AccountResolver.vaultAccounts(options.account.map { [$0] } ?? [], in: payload, phones: context.phoneNumbering, disclosure: context.console.disclosure).first,
                  let i = payload.accounts.firstIndex(where: { $0.id == account.id }) else {
                throw UsageError.missingArgument(command: "ack")
            }
            if let first = payload.accounts[i].unknownBreachNames(names.keys).first {
                // Only where the passphrase was given or the breach is public (not sensitive, in the
                // catalog); the name typed is not repeated, only where it was given.
                throw InputError(msg("#{1} was never found in the breach named by argument {2}; nothing was acknowledged",
                                     account.id, names.keys.firstIndex(of: first)! + 2),
                                 hint: ownBreachesHint(payload.accounts[i], context: context))
            }
            return [Row(id: account.id, acknowledged: payload.accounts[i].acknowledge(breachNames: names.keys.isEmpty ? nil : Set(names.keys), at: now))]
        }
        let total = rows.reduce(0) { $0 + $1.acknowledged }
        let c = context.console
        if context.json {
            try c.json(Report(accounts: rows.filter { $0.acknowledged > 0 }, acknowledged: total))
        } else if total == 0 {
            c.out(all ? msg("nothing to acknowledge") : msg("nothing to acknowledge for #{1}", rows.first?.id ?? 0))
        } else {
            for row in rows where row.acknowledged > 0 {
                c.out(msg(one: "#{1}: acknowledged {2} finding", many: "#{1}: acknowledged {2} findings", count: row.acknowledged,
                          row.id, row.acknowledged))
            }
        }
        return .success
    }

    /// The breaches typed, as the names findings are kept under (a title becomes its breach's name),
    /// and whether acknowledging them needs the passphrase: any that is sensitive, or that the catalog
    /// does not know (it could be sensitive), would otherwise make the answer an oracle for whether the
    /// account is in it. Decided from the typed text and the public catalog alone, before the vault is
    /// opened, so nothing about the account can change it.
    static func breachNames(_ typed: [String], context: Context) throws -> (keys: [String], needPassphrase: Bool) {
        guard !typed.isEmpty else { return ([], false) }
        let catalog = HIBPServices(context).catalogIfAvailable(naming: typed)
        var keys: [String] = [], needPassphrase = false
        for (position, text) in typed.enumerated() {
            if let breach = catalog?.breach(namedOrTitled: text) {
                keys.append(breach.name)
                if breach.isSensitive { needPassphrase = true }
            } else if let catalog, let near = nearPublicBreach(text, in: catalog) {
                // A typo of a public breach: said before the vault is opened, from the public catalog
                // alone (the same answer whatever the account holds), and no passphrase is asked for it.
                throw InputError(msg("argument {1} is not the name or title of a breach in HIBP's catalog; nothing was acknowledged", position + 2),
                                 hint: msg("did you mean {1}? 'pwnvault breaches' lists every breach", ScheduledWatch.shellQuoted(near)))
            } else {
                keys.append(text.trimmingWhitespace())
                needPassphrase = true
            }
        }
        return (keys, needPassphrase)
    }

    /// The public (not sensitive) breach whose name or title is within two edits of `text`, ignoring
    /// case: the typo's correction. Sensitive names are never offered.
    static func nearPublicBreach(_ text: String, in catalog: BreachCatalog) -> String? {
        let typed = text.trimmingWhitespace().lowercased()
        guard typed.count >= 3 else { return nil }
        var best: (text: String, distance: Int)?
        for b in catalog.breaches where !b.isSensitive {
            for candidate in Set([b.name, b.title]) {
                let d = EditDistance.between(typed, candidate.lowercased())
                if d <= 2, d < (best?.distance ?? .max) { best = (Sanitizer.singleLine(candidate), d) }
            }
        }
        return best?.text
    }

    /// Where the account was not in a breach named: its public breaches (as 'show' lists them), so the
    /// right one can be typed; never a sensitive one.
    static func ownBreachesHint(_ account: Account, context: Context) -> String {
        let names = context.console.disclosure.breaches(of: account, catalog: HIBPServices(context).cachedCatalog()).shown
            .map { ScheduledWatch.shellQuoted(Sanitizer.singleLine($0.name)) }
        guard !names.isEmpty else { return msg("it was found in no breach that can be named here; pwnvault show '#{1}' lists them", account.id) }
        let listed = names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "")
        return msg("its breaches: {1}; pwnvault show '#{2}' lists them", listed, account.id)
    }
}

extension AckCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `ack`'s options, read and checked once: one account (and breaches of it), or --all.
    struct Options: CommandOptions, Equatable {
        let all: Bool
        let yes: Bool
        /// The account or `#ID` given (nil with --all).
        let account: String?
        /// The breach names or titles typed after the account (none: all of its findings).
        let breaches: [String]

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            all = arguments.has(AckCommand.all)
            yes = arguments.has(AckCommand.yes)
            let words = arguments.positionals
            if all && !words.isEmpty {
                throw UsageError.conflicting(command: "ack", reason: msg("--all acknowledges the whole vault: give either --all or one account"))
            }
            if !all && words.isEmpty { throw UsageError.missingArgument(command: "ack") }
            account = words.first
            breaches = Array(words.dropFirst())
        }
    }
}
