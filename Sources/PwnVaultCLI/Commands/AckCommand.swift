import FoundationEssentials
import PwnVaultCore

/// `pwnvault ack`: marks findings as dealt with, so they are no longer new and `check` exits 0.
enum AckCommand: Command {
    static let spec = CommandSpec(
        name: "ack",
        summary: "mark an account's breaches as dealt with (no longer new; check exits 0)",
        usage: ["ACCOUNT|#ID [BREACH...]", "--all"],
        discussion: """
        Acknowledges what an account was found in: every breach, paste and stealer-log website, or only
        the breaches named (by the names 'pwnvault show --json' gives, case-insensitive). Acknowledged
        findings lose their NEW mark and their advice, and no longer make 'check' exit with status 1.
        A breach found later is new again. --all acknowledges everything in the vault.
        """,
        options: [OptionSpec("all", help: "acknowledge every finding of every account")],
        positionals: 0...Int.max,
        positionalHelp: [("ACCOUNT|#ID", "an account in the vault, or its id"),
                         ("BREACH", "a breach name; without any, all of the account's findings")],
        examples: [("pwnvault ack '#3'", "account #3: everything found so far is dealt with"),
                   ("pwnvault ack '#3' Adobe", "only the Adobe breach"),
                   ("pwnvault ack --all", "the whole vault")])

    struct Row: Encodable { let id: Int; let acknowledged: Int }
    struct Report: Encodable { let accounts: [Row]; let acknowledged: Int }

    static func run(_ context: Context) throws -> ExitStatus {
        let args = context.arguments
        let all = args.has("all")
        if all && !args.positionals.isEmpty {
            throw UsageError.conflicting(command: "ack", reason: "--all acknowledges the whole vault: give either --all or one account")
        }
        if !all && args.positionals.isEmpty { throw UsageError.missingArgument(command: "ack") }
        let session = try context.openVault()
        let now = context.now()
        let rows: [Row] = try session.update { payload in
            if all {
                return payload.accounts.indices.map { i in
                    Row(id: payload.accounts[i].id, acknowledged: payload.accounts[i].acknowledge(at: now))
                }
            }
            guard let account = try AccountResolver.vaultAccounts([args.positionals[0]], in: payload, phones: context.phoneNumbering, disclosure: context.console.disclosure).first,
                  let i = payload.accounts.firstIndex(where: { $0.id == account.id }) else {
                throw UsageError.missingArgument(command: "ack")
            }
            let names = Array(args.positionals.dropFirst())
            if !names.isEmpty {
                let unknown = payload.accounts[i].unknownBreachNames(names)
                if let first = unknown.first {
                    // A breach name is letters and digits; anything else is not echoed.
                    let shown = UsageError.isPlainWord(first) ? "'\(first)'" : "argument \(names.firstIndex(of: first)! + 2)"
                    throw InputError("#\(account.id) was never found in a breach named \(shown); nothing was acknowledged",
                                     hint: "'pwnvault show #\(account.id) --json' lists the names of its breaches")
                }
            }
            return [Row(id: account.id, acknowledged: payload.accounts[i].acknowledge(breachNames: names.isEmpty ? nil : Set(names), at: now))]
        }
        let total = rows.reduce(0) { $0 + $1.acknowledged }
        let c = context.console
        if context.json {
            try c.json(Report(accounts: rows.filter { $0.acknowledged > 0 }, acknowledged: total))
        } else if total == 0 {
            c.out(all ? "nothing to acknowledge" : "nothing to acknowledge for #\(rows.first?.id ?? 0)")
        } else {
            for row in rows where row.acknowledged > 0 {
                c.out("#\(row.id): acknowledged \(row.acknowledged) finding\(row.acknowledged == 1 ? "" : "s")")
            }
        }
        return .success
    }
}
