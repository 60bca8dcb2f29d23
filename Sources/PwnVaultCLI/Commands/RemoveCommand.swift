import PwnVaultCore

/// `pwnvault remove`: stop watching accounts. All or nothing.
enum RemoveCommand: Command {
    static let spec = CommandSpec(
        name: "remove",
        summary: "stop watching accounts (by #ID or by the account itself)",
        usage: ["ACCOUNT|#ID..."],
        discussion: "If any of the accounts is not in the vault, nothing is removed. Ids are never reused.",
        positionals: 1...Int.max,
        positionalHelp: [("ACCOUNT|#ID", "an account as added, or its id from 'pwnvault list'")],
        examples: [("pwnvault remove '#3'", "remove account #3 (quote the # in most shells)"),
                   ("pwnvault remove alice@example.com", "remove by the account itself")])

    struct Report: Encodable { let removed: [Int] }

    static func run(_ context: Context) throws -> ExitStatus {
        let session = try context.openVault()
        let removed: [Int] = try session.update { payload in
            let ids = try AccountResolver.vaultAccounts(context.arguments.positionals, in: payload, disclosure: context.console.disclosure).map(\.id)
            payload.accounts.removeAll { ids.contains($0.id) }
            return ids
        }
        if context.json {
            try context.console.json(Report(removed: removed))
        } else {
            for id in removed { context.console.out("removed #\(id)") }
        }
        return .success
    }
}
