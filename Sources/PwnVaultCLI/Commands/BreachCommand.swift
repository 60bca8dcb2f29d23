import Foundation
import PwnVaultCore

/// `pwnvault breach NAME`: everything the catalog says about one breach, as plain text.
enum BreachCommand: Command {
    static let spec = CommandSpec(
        name: "breach",
        summary: "explain one breach: dates, size, what was exposed, flags and description",
        usage: ["NAME [--refresh]"],
        options: [OptionSpec("refresh", help: "refresh the cached breach catalog first")],
        positionals: 1...1,
        positionalHelp: [("NAME", "the breach's name, as in 'pwnvault breaches' (case-insensitive)")],
        examples: [("pwnvault breach Adobe", "what the Adobe breach exposed")],
        usesVault: false)

    struct Report: Encodable {
        let name, title, domain: String
        let breachDate: String?
        let addedDate: Date?
        let modifiedDate: Date?
        let pwnCount: Int64
        let dataClasses: [String]
        let flags: [String]
        let description: String
        let links: [String]
        /// What to do when one's account is in it, one line per kind of data exposed.
        let advice: [String]
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let name = context.arguments.positionals[0]
        let catalog = try HIBPServices(context).catalog(refresh: context.arguments.has("refresh"))
        guard let b = catalog.breach(named: name) else {
            let suggestion = Suggest.closest(to: name, in: catalog.breaches.map(\.name))
            // Breach names are letters and digits; anything else is not echoed (it may be an account).
            let shown = UsageError.isPlainWord(name) ? " named '\(name)'" : " by that name"
            throw InputError("no breach\(shown) in the catalog",
                             hint: suggestion.map { "did you mean '\(Sanitizer.singleLine($0))'?" } ?? "search with 'pwnvault breaches --search TEXT'")
        }
        let (text, links) = HTMLText.render(b.descriptionHTML, width: 78)
        let flags = flagList(b)
        let c = context.console
        if context.json {
            try c.json(Report(name: Sanitizer.singleLine(b.name), title: Sanitizer.singleLine(b.title), domain: Sanitizer.singleLine(b.domain),
                              breachDate: b.breachDate.map { "\($0)" }, addedDate: b.addedDate, modifiedDate: b.modifiedDate,
                              pwnCount: b.pwnCount, dataClasses: b.dataClasses.map(Sanitizer.singleLine), flags: flags,
                              description: text, links: links.map(Sanitizer.singleLine), advice: BreachAdvice.lines(for: b)))
            return .success
        }
        c.out(c.styled(Sanitizer.singleLine(b.title), .bold) + (b.domain.isEmpty ? "" : "  (\(Sanitizer.singleLine(b.domain)))"))
        c.out("")
        let day = { (d: Date?) in d.map { ListCommand.format($0).prefix(10) }.map(String.init) ?? "-" }
        c.out("breach date:        \(b.breachDate.map { "\($0)" } ?? "unknown")")
        c.out("added to HIBP:      \(day(b.addedDate))")
        c.out("accounts affected:  \(thousands(b.pwnCount))")
        c.out("exposed:            " + (b.dataClasses.isEmpty ? "-" : b.dataClasses.map(Sanitizer.singleLine).joined(separator: ", ")))
        c.out("flags:              " + (flags.isEmpty ? "-" : flags.joined(separator: ", ")))
        if !text.isEmpty {
            c.out("")
            c.out(text)
        }
        if !links.isEmpty {
            c.out("")
            for (i, link) in links.enumerated() { c.out("[\(i + 1)] \(Sanitizer.singleLine(link))") }
        }
        let advice = BreachAdvice.lines(for: b)
        if !advice.isEmpty {
            c.out("")
            c.out("if one of your accounts is in it:")
            for line in advice { c.out("  → " + line) }
        }
        return .success
    }

    static func flagList(_ b: Breach) -> [String] {
        var f: [String] = [b.isVerified ? "verified" : "unverified"]
        if b.isSensitive { f.append("sensitive") }
        if b.isFabricated { f.append("fabricated") }
        if b.isSpamList { f.append("spam list") }
        if b.isMalware { f.append("malware") }
        if b.isStealerLog { f.append("stealer log") }
        if b.isRetired { f.append("retired") }
        if b.isSubscriptionFree { f.append("subscription-free") }
        return f
    }
}
