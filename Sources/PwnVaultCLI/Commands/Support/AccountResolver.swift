import FoundationEssentials
import PwnVaultCore

/// Finds vault accounts named on the command line as `#ID` or as the account itself.
enum AccountResolver {
    enum Target {
        case inVault(Account)
        /// A valid account that is not in the vault (`check` may still look it up), and where it was given.
        case notInVault(ParsedAccount, InputPosition)
    }

    /// Resolves each argument. `#8`, `8` and `%8` all mean id 8, unless the argument is exactly an
    /// account in the vault; an id must exist, an account may be outside the vault only if
    /// `allowOutside`. Errors suggest the closest id; the closest account only on a terminal outside
    /// share mode (`disclosure`), within two edits.
    /// A phone number finds its account in any form, also one stored as typed by an older version.
    static func resolve(_ arguments: [String], in payload: VaultPayload, phones: PhoneNumbering, allowOutside: Bool = false,
                        disclosure: Disclosure? = nil) throws -> [Target] {
        var byKey: [AccountKey: Account] = [:]
        for a in payload.accounts { byKey[a.dedupKey] = a }
        // Phone numbers read again only when one is asked for (it loads libphonenumber).
        lazy var byPhoneKey: [AccountKey: Account] = {
            let byID = Dictionary(payload.accounts.map { ($0.id, $0) }) { first, _ in first }
            var keys: [AccountKey: Account] = [:]
            for (id, key) in payload.accountKeys(phones: phones) where keys[key] == nil { keys[key] = byID[id] }
            return keys
        }()
        var seen = Set<Int>()
        var seenOutside = Set<AccountKey>()
        var targets: [Target] = []
        for (index, raw) in arguments.enumerated() {
            let position = InputPosition.argument(index + 1)
            let trimmed = raw.trimmingWhitespace()
            let parsed = try? AccountParser.parse(raw, phones: phones)
            if let parsed, let account = byKey[parsed.dedupKey] ?? (parsed.kind == .phone ? byPhoneKey[parsed.dedupKey] : nil) {
                if seen.insert(account.id).inserted { targets.append(.inVault(account)) }
                continue
            }
            if let id = idForm(trimmed) {
                guard let id else {
                    throw InputError(msg("{1} is not a valid id", position.phrase), hint: msg("ids look like #3 or 3; see them with 'pwnvault list'"))
                }
                guard let account = payload.accounts.first(where: { $0.id == id }) else {
                    throw InputError(msg("no account #{1} in the vault", id), hint: closestIDHint(to: id, in: payload))
                }
                if seen.insert(account.id).inserted { targets.append(.inVault(account)) }
                continue
            }
            let valid: ParsedAccount
            do { valid = try AccountParser.parse(raw, phones: phones) } catch let e as AccountParseError {
                throw InputError(msg("{1}: {2}", position.phrase, e.message), hint: e.hint)
            }
            if allowOutside {
                if seenOutside.insert(valid.dedupKey).inserted { targets.append(.notInVault(valid, position)) }
            } else {
                let hint: String
                // A typed account gets a suggestion only where the person typing may see masked
                // accounts (a terminal outside share mode), and only within two edits: elsewhere a
                // suggestion would answer guesses about what the vault holds.
                if let disclosure, disclosure.policy.showsMaskedAccounts, let near = payload.closestAccount(to: valid) {
                    hint = msg("did you mean '#{1}' ({2})? see the vault with 'pwnvault list'", near.id, disclosure.account(near))
                } else {
                    hint = msg("see what is with 'pwnvault list'; ids like #3 or 3 work too")
                }
                throw InputError(msg("{1} is not in the vault", position.phrase), hint: hint)
            }
        }
        return targets
    }

    /// nil: not an id form; `.some(nil)`: looks like one but is no valid id; else the id.
    /// `#8`, `%8` (the job-spec habit) and a bare `8`.
    static func idForm(_ word: String) -> Int?? {
        var digits = Substring(word)
        if let first = digits.first, first == "#" || first == "%" {
            digits = digits.dropFirst()
            guard let id = Int(digits), id > 0 else { return .some(nil) }
            return id
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 9 else { return nil }
        guard let id = Int(digits), id > 0 else { return .some(nil) }
        return id
    }

    /// "did you mean '#7'?" for the existing id nearest to `id`, or where to see them.
    static func closestIDHint(to id: Int, in payload: VaultPayload) -> String {
        guard let near = payload.accounts.map(\.id).min(by: { abs($0 - id) < abs($1 - id) }) else {
            return msg("the vault is empty; add accounts with 'pwnvault add ACCOUNT'")
        }
        return msg("did you mean '#{1}'? the vault has {2} (quote the # in most shells, or leave it out)", near, idRanges(payload.accounts.map(\.id)))
    }

    /// The ids there are, as ranges: `#1–#4, #7, #9–#12`; past eight ranges, the rest as a count.
    static func idRanges(_ ids: [Int]) -> String {
        var ranges: [ClosedRange<Int>] = []
        for id in Set(ids).sorted() {
            if let last = ranges.last, last.upperBound + 1 == id { ranges[ranges.count - 1] = last.lowerBound...id } else { ranges.append(id...id) }
        }
        let shown = ranges.prefix(8).map { $0.count == 1 ? "#\($0.lowerBound)" : "#\($0.lowerBound)–#\($0.upperBound)" }
        let rest = ranges.dropFirst(8).reduce(0) { $0 + $1.count }
        let list = shown.joined(separator: ", ")
        return rest > 0 ? msg("{1} and {2} more ('pwnvault list' shows them)", list, rest) : list
    }

    static func vaultAccounts(_ arguments: [String], in payload: VaultPayload, phones: PhoneNumbering,
                              disclosure: Disclosure? = nil) throws -> [Account] {
        try resolve(arguments, in: payload, phones: phones, disclosure: disclosure).compactMap { if case let .inVault(a) = $0 { return a } else { return nil } }
    }
}
