import Foundation
import PwnVaultCore

/// Finds vault accounts named on the command line as `#ID` or as the account itself.
enum AccountResolver {
    enum Target {
        case inVault(Account)
        /// A valid account that is not in the vault (`check` may still look it up), and where it was given.
        case notInVault(ParsedAccount, InputPosition)
    }

    /// Resolves each argument; `#ID` must exist, an account may be outside the vault only if `allowOutside`.
    static func resolve(_ arguments: [String], in payload: VaultPayload, allowOutside: Bool = false) throws -> [Target] {
        var byKey: [AccountKey: Account] = [:]
        for a in payload.accounts { byKey[a.dedupKey] = a }
        var seen = Set<Int>()
        var seenOutside = Set<AccountKey>()
        var targets: [Target] = []
        for (index, raw) in arguments.enumerated() {
            let position = InputPosition.argument(index + 1)
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") {
                guard let id = Int(trimmed.dropFirst()), id > 0 else {
                    throw InputError("\(position.text) is not a valid id", hint: "ids look like #3; see them with 'pwnvault list'")
                }
                guard let account = payload.accounts.first(where: { $0.id == id }) else {
                    throw InputError("no account #\(id) in the vault", hint: "see the ids with 'pwnvault list'")
                }
                if seen.insert(account.id).inserted { targets.append(.inVault(account)) }
                continue
            }
            let parsed: ParsedAccount
            do { parsed = try AccountParser.parse(raw) } catch let e as UserFacingError {
                throw InputError("\(position.text): \(e.message)", hint: e.hint)
            }
            if let account = byKey[parsed.dedupKey] {
                if seen.insert(account.id).inserted { targets.append(.inVault(account)) }
            } else if allowOutside {
                if seenOutside.insert(parsed.dedupKey).inserted { targets.append(.notInVault(parsed, position)) }
            } else {
                throw InputError("\(position.text) is not in the vault", hint: "see what is with 'pwnvault list'; ids like #3 work too")
            }
        }
        return targets
    }

    static func vaultAccounts(_ arguments: [String], in payload: VaultPayload) throws -> [Account] {
        try resolve(arguments, in: payload).compactMap { if case let .inVault(a) = $0 { return a } else { return nil } }
    }
}
