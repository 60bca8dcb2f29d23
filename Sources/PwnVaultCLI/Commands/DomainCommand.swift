import FoundationEssentials
import PwnVaultCore

/// `pwnvault domain`: every breached address of a domain the API key verified, in one request, and
/// the domains the key may search.
enum DomainCommand: Command {
    static let save = OptionSpec("save", help: msg("add the breached addresses to the vault and record their results"))

    static let spec = CommandSpec(
        name: "domain",
        summary: msg("search a whole domain you own in one request (breached addresses, masked)"),
        usage: ["DOMAIN [--save]", ""],
        discussion: msg("""
        For domains verified on haveibeenpwned.com with the API key: one request lists every breached
        address of the domain, shown masked on a terminal (as 'address N' elsewhere), with their
        breaches; sensitive ones are counted, not named. Aliases HIBP lists that are not valid accounts
        are counted with why, never shown or saved. --save adds every breached address to the
        vault and records its result, as 'check' would; addresses already in the vault get their result
        recorded. Without DOMAIN, lists the domains the key may search. 'pwnvault watch' uses domain
        search by itself for vault addresses on these domains: one request per domain, not per address.
        Exit status: 0 no listed address has a breach to acknowledge, 1 one has, 7 the key was
        refused or may not search the domain.
        """),
        options: [save],
        positionals: 0...1,
        positionalHelp: [("DOMAIN", msg("a domain verified for the API key, e.g. example.com"))],
        examples: [("pwnvault domain", msg("the domains the key may search")),
                   ("pwnvault domain example.com --save", msg("watch every breached address of example.com"))])

    struct DomainRow: Encodable { let domain: String; let pwnCount: Int64?; let pwnCountExcludingSpamLists: Int64? }
    struct AddressRow: Encodable {
        let id: Int?
        let input: String?
        let label: String?
        let breaches: [String]
        let breachCount: Int
        let sensitiveBreaches: Int
        let unnamedBreaches: Int
    }
    /// Breached aliases that are not usable as accounts: why (a fixed sentence, never the alias) and how many.
    struct UnusableRow: Encodable { let reason: String; let count: Int }
    struct Report: Encodable {
        let domain: String
        let breachedAddresses: Int
        let added: Int
        let addresses: [AddressRow]
        /// How many of `breachedAddresses` are not listed (not valid accounts), and why.
        let unusable: Int
        let unusableReasons: [UnusableRow]
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let services = HIBPServices(context)
        let key = try services.apiKey(allOnTestDomain: false)
        let c = context.console
        let session = services.checkSession(key: key, vault: nil, options: .init(maxWait: context.settings.maxWaitSeconds))
        func once<T: Sendable>(_ request: @escaping @Sendable (HIBPClient) async throws -> T) throws -> T {
            try blocking { try await session.one(request) { SessionRendering.note($0, say: { c.note($0) }) } }
        }
        guard let domain = options.domain else {
            let domains = try once { try await $0.subscribedDomains() }
            if context.json {
                // A verified domain is the owner's account data: named on a terminal outside share mode
                // only; pipes, JSON and share mode get "domain N" (the order HIBP lists them in).
                try c.json(domains.enumerated().map { i, d in DomainRow(domain: "domain \(i + 1)", pwnCount: d.pwnCount,
                                                   pwnCountExcludingSpamLists: d.pwnCountExcludingSpamLists) })
            } else if domains.isEmpty {
                c.note(msg("the API key has no verified domain; verify one on haveibeenpwned.com (Domain search)"))
            } else {
                for (i, d) in domains.enumerated() {
                    let name = c.showsAccounts ? Sanitizer.singleLine(d.domainName) : msg("domain {1}", i + 1)
                    c.out(d.pwnCount.map { msg("{1}  {2} breached addresses", name, thousands($0)) } ?? name)
                }
            }
            return .success
        }
        let search: DomainSearch
        do {
            let name = domain.lowercased()
            search = try once { try await $0.breachedDomain(name) }
        } catch let refusal as HIBPError {
            // HIBP's 403 for a domain the key has not verified: say which it may search instead.
            guard case .forbidden(nil, _) = refusal,
                  let verified = try? once({ try await $0.subscribedDomains() }),
                  !verified.contains(where: { $0.domainName.lowercased() == domain.lowercased() }) else { throw refusal }
            throw DomainNotVerified(domain: Sanitizer.singleLine(domain.lowercased()),
                                    verified: verified.map { Sanitizer.singleLine($0.domainName) }, listed: c.showsAccounts)
        }
        let now = context.now()
        let catalog = search.count == 0 ? nil : services.catalogIfAvailable(refresh: false)
        let location = try context.vaultLocation()
        let vault: VaultSession? = options.save || VaultStore(location: location).exists ? try context.openVault() : nil

        var vaultByKey: [AccountKey: Account] = [:]
        var added = 0
        let found = search.accounts(at: now)
        let unusable = search.unusableAliases()
        let unusableCount = unusable.reduce(0) { $0 + $1.count }
        if let vault, options.save {
            let outcomes = try AccountAdder.add(found.map { ($0.account, nil) }, to: vault, now: now, phones: context.phoneNumbering, console: c)
            added = outcomes.filter { if case .added = $0 { return true } else { return false } }.count
            try CheckSession.record(search, in: vault, at: now)
        }
        for a in vault?.payload.accounts ?? [] { vaultByKey[a.dedupKey] = a }

        var rows: [AddressRow] = []
        var lines: [String] = []
        var unacknowledged = false
        for (n, item) in found.enumerated() {
            let inVault = vaultByKey[item.account.dedupKey]
            // The domain's answer; once saved, the vault's view of it (what is new, what acknowledged).
            let disclosed = options.save && inVault != nil ? c.disclosure.breaches(of: inVault!, catalog: catalog)
                                                                              : c.disclosure.breaches(item.result, catalog: catalog)
            // "address N": the JSON's `input` (English whatever the language); `shownPosition` on the screen.
            let position = "address \(n + 1)", shownPosition = msg("address {1}", n + 1)
            // Saved: what the vault says is acknowledged; not saved: every listed address is breached.
            if let a = inVault, options.save {
                unacknowledged = unacknowledged || !a.unacknowledgedFindings.isEmpty
            } else {
                unacknowledged = true
            }
            rows.append(AddressRow(id: inVault?.id, input: inVault == nil ? position : nil, label: inVault.flatMap { c.label($0) },
                                   breaches: disclosed.shown.map(\.name), breachCount: disclosed.total,
                                   sensitiveBreaches: disclosed.sensitive, unnamedBreaches: disclosed.unnamed))
            let who = inVault.map { c.heading($0) } ?? c.disclosure.account(item.account, position: shownPosition)
            let named = BreachRendering(c).titles(disclosed, newMark: nil, inVault: inVault != nil && options.save)
            let n = disclosed.total
            let names = named.joined(separator: ", ")
            lines += c.hanging(msg("{1}: ", who + "  " + c.styled(msg(one: "pwned in {1} breach", many: "pwned in {1} breaches", count: n, n), .red)),
                               inVault == nil ? msg("{1}  (not in the vault)", names) : names)
        }
        if context.json {
            try c.json(Report(domain: "domain", breachedAddresses: search.count, added: added, addresses: rows,
                              unusable: unusableCount,
                              // A JSON value: the reasons in English whatever the language.
                              unusableReasons: Messages.english { search.unusableAliases() }.map { UnusableRow(reason: $0.reason, count: $0.count) }))
        } else {
            let shown = c.showsAccounts ? search.domain : msg("the domain")
            c.out(unusableCount == 0
                ? msg(one: "{1}: {2} breached address", many: "{1}: {2} breached addresses", count: search.count, shown, search.count)
                : msg(one: "{1}: {2} breached address, {3} listed ({4} not usable as accounts)",
                      many: "{1}: {2} breached addresses, {3} listed ({4} not usable as accounts)",
                      count: search.count, shown, search.count, found.count, unusableCount))
            lines.forEach { c.out($0) }
            if unusableCount > 0 {
                // The aliases are account data: counted with why, never shown.
                c.out(msg(one: "not listed: {1} breached alias HIBP gave that is not usable as accounts (not added)",
                          many: "not listed: {1} breached aliases HIBP gave that are not usable as accounts (not added)",
                          count: unusableCount, unusableCount))
                for (reason, count) in unusable { c.out("  \(count)  \(reason)") }
            }
            if options.save { c.note(msg("added {1} to the vault; results recorded for every address on {2} in it", added, shown)) }
        }
        return unacknowledged ? .breachesFound : .success
    }

    /// Letters, digits, hyphens and dots, with a dot, as a domain is written (no account, no path).
    static func isDomainName(_ text: String) -> Bool {
        text.count <= 253 && text.contains(".") && !text.hasPrefix(".") && !text.hasSuffix(".") && !text.contains("..")
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
    }
}

/// `domain D` for a domain the API key has not verified (HIBP's 403).
struct DomainNotVerified: UserFacingError {
    let domain: String
    /// The domains the key may search.
    let verified: [String]
    /// Whether they may be named here (a terminal outside share mode); else counted.
    let listed: Bool

    var message: String {
        if verified.isEmpty { return msg("{1} is not verified for this key, and it has no verified domain", domain) }
        if listed { return msg("{1} is not verified for this key; it may search: {2}", domain, verified.joined(separator: ", ")) }
        return msg(one: "{1} is not verified for this key; it may search {2} other domain ('pwnvault domain' lists them)",
                   many: "{1} is not verified for this key; it may search {2} other domains ('pwnvault domain' lists them)",
                   count: verified.count, domain, verified.count)
    }
    var hint: String? { msg("verify {1} on haveibeenpwned.com (Domain search) with this key's account, then run it again", domain) }
    var exitStatus: ExitStatus { .apiAuthorization }
}

extension DomainCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `domain`'s options, read and checked once.
    struct Options: CommandOptions, Equatable {
        /// The domain to search (a domain name, checked here); nil: list the key's verified domains.
        let domain: String?
        let save: Bool

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            domain = arguments.positionals.first
            save = arguments.has(DomainCommand.save)
            guard let domain else {
                if save { throw UsageError.conflicting(command: "domain", reason: msg("--save needs a DOMAIN")) }
                return
            }
            guard DomainCommand.isDomainName(domain) else {
                throw InputError(msg("the argument is not a domain name"), hint: msg("give a domain such as example.com; 'pwnvault domain' lists the key's"))
            }
        }
    }
}
