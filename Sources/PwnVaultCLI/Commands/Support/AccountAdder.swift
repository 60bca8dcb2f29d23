import Foundation
import PwnVaultCore

/// Adds parsed accounts to a vault, skipping those already in it: the one place `add`, `import` and
/// `check --save` do it, under the vault's lock, against its latest content.
enum AccountAdder {
    /// What happened to candidate `index` (its position in the list given).
    enum Outcome {
        case added(Account)
        case alreadyIn(id: Int)
    }

    /// Adds each candidate that is not in the vault yet (nor earlier in the list); returns one outcome
    /// per candidate, in order.
    static func add(_ candidates: [(account: ParsedAccount, label: AccountLabel?)], to session: VaultSession,
                    now: Date) throws -> [Outcome] {
        try session.update { payload in
            var existing: [AccountKey: Int] = [:]
            for a in payload.accounts { existing[a.dedupKey] = a.id }
            return candidates.map { candidate in
                let p = candidate.account
                if let id = existing[p.dedupKey] { return .alreadyIn(id: id) }
                let account = Account(id: payload.nextID, parsed: p, label: candidate.label, addedAt: now)
                payload.nextID += 1
                payload.accounts.append(account)
                existing[p.dedupKey] = account.id
                return .added(account)
            }
        }
    }

    /// `added #3  a•••e@e•••.com  email  Label` (the account masked on a terminal, left out elsewhere).
    static func addedLine(_ account: Account, console c: Console) -> String {
        var line = "added #\(account.id)"
        if c.showsAccounts { line += "  \(c.disclosure.account(account))" }
        line += "  \(account.kind.rawValue)"
        if let l = c.label(account) { line += "  \(l)" }
        return line
    }
}
