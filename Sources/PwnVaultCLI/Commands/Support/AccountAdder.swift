import FoundationEssentials
import PwnVaultCore

/// Adds parsed accounts to a vault, skipping those already in it: the one place `add`, `import` and
/// `check --save` do it, under the vault's lock, against its latest content.
enum AccountAdder {
    /// Said by add and import for a phone number written with an extension.
    static let droppedExtensionNote = "the phone number's extension was left out (HIBP knows numbers, not extensions)"

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
            console.warning("\(list(ids.map { "#\($0)" })) are one phone number written in different forms; all are kept")
            console.note("hint: keep one, e.g. 'pwnvault remove \(ids.last!)' (see them with 'pwnvault list')")
        }
        switch lookalikes {
        case let .success(found):
            for l in found { console.warning(warning(l)) }
        case let .failure(unavailable):
            console.warning("look-alike accounts were not checked: \(unavailable)")
            console.note("hint: install it with: apt-get install libicu-dev")
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
        items.count <= 2 ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    static func warning(_ l: Lookalike) -> String {
        let mixed = l.mixedScripts.count >= 2 ? "mixed scripts: \(list(l.mixedScripts))" : nil
        guard !l.resembles.isEmpty else {
            return "#\(l.id) mixes scripts in one part (\(list(l.mixedScripts))); it can be mistaken for another account"
        }
        let ids = list(l.resembles.map { "#\($0.id)" })
        if let mixed { return "#\(l.id) looks like \(ids) (\(mixed))" }
        let others = l.resembles.flatMap(\.scripts).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if !l.scripts.isEmpty, !others.isEmpty, Set(l.scripts) != Set(others) {
            return "#\(l.id) looks like \(ids) (written in \(list(l.scripts)), \(ids) in \(list(others)))"
        }
        return "#\(l.id) looks like \(ids) (characters that look alike)"
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
