import FoundationEssentials
import PwnVaultCore

/// Adds parsed accounts to a vault, skipping those already in it: the one place `add`, `import` and
/// `check --save` do it, under the vault's lock, against its latest content.
enum AccountAdder {
    /// Said by add and import for a phone number written with an extension, at `place` ("argument 2", "line 14").
    static func droppedExtensionNote(at place: String) -> String {
        msg("{1}: the phone number's extension was left out (HIBP knows numbers, not extensions)", place)
    }

    /// What happened to candidate `index` (its position in the list given).
    enum Outcome {
        case added(Account)
        case alreadyIn(id: Int)
    }

    /// Adds each candidate that is not in the vault yet (nor earlier in the list); returns one outcome
    /// per candidate, in order. Each account added that mixes scripts or looks like another account
    /// (`LookalikeFinder`) is still added, with a warning on `console` that names both ids. Phone numbers
    /// the vault holds in two forms (stored as typed by older versions) are warned about by id, not merged.
    static func add(_ candidates: [(account: ParsedAccount, label: AccountLabel?)], to session: VaultSession,
                    now: Date, phones: PhoneNumbering, console: Console) throws -> [Outcome] {
        let (outcomes, lookalikes, samePhones) = try session.update { payload -> ([Outcome], Result<[Lookalike], ICUSpoofChecker.Unavailable>, [[Int]]) in
            let before = payload.accounts
            let samePhones = payload.samePhoneNumbers(phones: phones)
            var existing: [AccountKey: Int] = [:]
            for (id, key) in payload.accountKeys(phones: phones) where existing[key] == nil { existing[key] = id }
            let outcomes: [Outcome] = candidates.map { candidate in
                let p = candidate.account
                if let id = existing[p.dedupKey] { return .alreadyIn(id: id) }
                let account = Account(id: payload.nextID, parsed: p, label: candidate.label, addedAt: now)
                payload.nextID += 1
                payload.accounts.append(account)
                existing[p.dedupKey] = account.id
                return .added(account)
            }
            // Under the lock, so the comparison is with what the vault holds now.
            let added = outcomes.compactMap { if case let .added(a) = $0 { return a } else { return nil } }
            return (outcomes, lookalikesAmong(added, existing: before), samePhones)
        }
        for ids in samePhones {
            console.warning(msg("{1} are one phone number written in different forms; all are kept", list(ids.map { "#\($0)" })))
            console.note(msg("hint: keep one, e.g. 'pwnvault remove {1}' (see them with 'pwnvault list')", ids.last!))
        }
        switch lookalikes {
        case let .success(found):
            for l in found { console.warning(warning(l)) }
        case let .failure(unavailable):
            console.warning(msg("look-alike accounts were not checked: {1}", String(describing: unavailable)))
            console.note(msg("hint: install it with: apt-get install libicu-dev"))
        }
        return outcomes
    }

    /// ICU is loaded only here, and only when an account is actually added.
    private static func lookalikesAmong(_ added: [Account], existing: [Account]) -> Result<[Lookalike], ICUSpoofChecker.Unavailable> {
        guard added.contains(where: { $0.kind != .phone }) else { return .success([]) }
        do {
            var finder = LookalikeFinder(checker: try ICUSpoofChecker.load(), existing: existing)
            return .success(added.compactMap { finder.examine($0) })
        } catch let e as ICUSpoofChecker.Unavailable {
            return .failure(e)
        } catch {
            return .failure(ICUSpoofChecker.Unavailable(description: "\(error)"))
        }
    }

    /// `#4 looks like #1 (mixed scripts: Latin and Cyrillic)`: ids and script names only, never the accounts.
    /// `#1 and #2`, `#1, #2 and #3`.
    private static func list(_ items: [String]) -> String {
        guard items.count >= 2 else { return items.first ?? "" }
        return msg("{1} and {2}", items.dropLast().joined(separator: ", "), items.last!)
    }

    static func warning(_ l: Lookalike) -> String {
        guard !l.resembles.isEmpty else {
            return msg("#{1} mixes scripts in one part ({2}); it can be mistaken for another account", l.id, list(l.mixedScripts))
        }
        let ids = list(l.resembles.map { "#\($0.id)" })
        if l.mixedScripts.count >= 2 { return msg("#{1} looks like {2} (mixed scripts: {3})", l.id, ids, list(l.mixedScripts)) }
        let others = l.resembles.flatMap(\.scripts).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if !l.scripts.isEmpty, !others.isEmpty, Set(l.scripts) != Set(others) {
            return msg("#{1} looks like {2} (written in {3}, {2} in {4})", l.id, ids, list(l.scripts), list(others))
        }
        return msg("#{1} looks like {2} (characters that look alike)", l.id, ids)
    }

    /// `added #3  a•••e@e•••.com  email  Label` (the account masked on a terminal, left out elsewhere).
    /// `addedLine` for each account, in columns: `added #9 ` and `added #10` line up what follows.
    static func addedLines(_ accounts: [Account], console c: Console) -> [String] {
        addedLines(accounts.map { ($0, c.label($0)) }, console: c)
    }

    /// The same with each account's label as `c.label(account)` gave it (`import` has them already:
    /// the gate reads each label once).
    static func addedLines(_ accounts: [(account: Account, label: String?)], console c: Console) -> [String] {
        guard accounts.count > 1 else { return accounts.map { addedLine($0.account, label: $0.label, console: c) } }
        var table = Table(header: c.showsAccounts ? ["", "", "", ""] : ["", "", ""])
        table.rows = accounts.map { a, label in
            [msg("added #{1}", a.id)] + (c.showsAccounts ? [c.disclosure.account(a)] : []) + [kindText(a.kind), label ?? ""]
        }
        return Array(table.render().dropFirst())
    }

    /// The kind in the reader's words (邮箱, 用户名, 电话号码); English "email", "username", "phone".
    static func kindText(_ kind: AccountKind) -> String {
        switch kind {
        case .email: return msg("email")
        case .username: return msg("username")
        case .phone: return msg("phone")
        }
    }

    static func addedLine(_ account: Account, console c: Console) -> String {
        addedLine(account, label: c.label(account), console: c)
    }

    /// The same with the account's label as `c.label(account)` gave it (`import` has it already).
    static func addedLine(_ account: Account, label: String?, console c: Console) -> String {
        var line = msg("added #{1}", account.id)
        if c.showsAccounts { line += "  \(c.disclosure.account(account))" }
        line += "  " + kindText(account.kind)
        if let l = label { line += "  \(l)" }
        return line
    }
}
