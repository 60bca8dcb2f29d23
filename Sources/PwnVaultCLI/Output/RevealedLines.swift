import PwnVaultCore

/// What reveal shows of one account, after the passphrase: the account, its label and status, then
/// every breach (sensitive ones named and marked), every paste and every stealer-log website. The one
/// builder for `reveal`'s private screen, its `--unredacted` text and the ui's `v`, so they show the
/// same. Stealer-log websites are named here and nowhere else (other outputs count them).
enum RevealedLines {
    /// The account's lines for a `TextPager`: a heading, then one line per finding under its group.
    static func lines(for a: Account, status: String, catalog: BreachCatalog?, grant: RevealGrant) -> [TextPager.Line] {
        var out = [TextPager.Line(heading(for: a, status: status, grant: grant))]
        let breaches = names(of: a, catalog: catalog, grant: grant)
        let sensitive = breaches.filter(\.sensitive).count
        if !breaches.isEmpty {
            out.append(TextPager.Line(sensitive > 0
                ? msg(one: "{1} breach, {2} sensitive:", many: "{1} breaches, {2} sensitive:", count: breaches.count, breaches.count, sensitive)
                : msg(one: "{1} breach:", many: "{1} breaches:", count: breaches.count, breaches.count), indent: 2))
            out += breaches.map { TextPager.Line($0.text, indent: 4) }
        }
        let unlisted = unlistedNames(of: a, catalog: catalog, grant: grant)
        if !unlisted.isEmpty {
            out.append(TextPager.Line(msg(one: "{1} breach no longer listed by HIBP:", many: "{1} breaches no longer listed by HIBP:",
                                          count: unlisted.count, unlisted.count), indent: 2))
            out += unlisted.map { TextPager.Line($0, indent: 4) }
        }
        let pastes = Disclosure.revealedPastes(a, grant: grant)
        if !pastes.isEmpty {
            out.append(TextPager.Line(msg(one: "{1} paste (source/id):", many: "{1} pastes (source/id):", count: pastes.count, pastes.count), indent: 2))
            out += pastes.map { TextPager.Line($0, indent: 4) }
        }
        let sites = Disclosure.revealedStealerLogSites(a, grant: grant)
        if !sites.isEmpty {
            out.append(TextPager.Line(msg(one: "{1} website in info-stealer logs (change the passwords used there):",
                                          many: "{1} websites in info-stealer logs (change the passwords used there):",
                                          count: sites.count, sites.count), indent: 2))
            out += sites.map { TextPager.Line($0, indent: 4) }
        }
        return out
    }

    /// The account on one line for `--unredacted` into a pipe or a file, tab-separated: id, account,
    /// label (in brackets, when there is one), status, then the breaches, `pastes: …` and
    /// `stealer-log websites: …` (each comma-separated, only when there are any).
    static func fields(for a: Account, status: String, catalog: BreachCatalog?, grant: RevealGrant) -> [String] {
        var parts = ["#\(a.id)", Disclosure.revealed(a, grant: grant)]
        if let l = Disclosure.revealedLabel(a, grant: grant) { parts.append("(\(l))") }
        parts.append(status)
        let breaches = names(of: a, catalog: catalog, grant: grant)
        if !breaches.isEmpty { parts.append(breaches.map(\.text).joined(separator: ", ")) }
        let unlisted = unlistedNames(of: a, catalog: catalog, grant: grant)
        if !unlisted.isEmpty { parts.append(msg("no longer listed by HIBP: {1}", unlisted.joined(separator: ", "))) }
        let pastes = Disclosure.revealedPastes(a, grant: grant)
        if !pastes.isEmpty { parts.append(msg("pastes: {1}", pastes.joined(separator: ", "))) }
        let sites = Disclosure.revealedStealerLogSites(a, grant: grant)
        if !sites.isEmpty { parts.append(msg("stealer-log websites: {1}", sites.joined(separator: ", "))) }
        return parts
    }

    /// `#3 alice@example.com (Alice)  breached (40)`.
    static func heading(for a: Account, status: String, grant: RevealGrant) -> String {
        var parts = ["#\(a.id)", Disclosure.revealed(a, grant: grant)]
        if let l = Disclosure.revealedLabel(a, grant: grant) { parts.append("(\(l))") }
        return parts.joined(separator: " ") + "  " + status
    }

    /// Every breach HIBP no longer lists, newest first: `Adobe (retired by HIBP)`, `Dropbox (since 2026-12-03)`.
    static func unlistedNames(of a: Account, catalog: BreachCatalog?, grant: RevealGrant) -> [String] {
        Disclosure.revealedUnlistedBreaches(a, catalog: catalog, grant: grant).map { item in
            let b = item.breach
            let title = b.isSensitive ? msg("{1} (sensitive)", Sanitizer.singleLine(b.hasDetails ? b.title : b.name))
                : Sanitizer.singleLine(b.hasDetails ? b.title : b.name)
            return item.retired ? msg("{1} (retired by HIBP, no longer listed since {2})", title, BreachRendering.day(item.since))
                                : msg("{1} (no longer listed since {2})", title, BreachRendering.day(item.since))
        }
    }

    /// Every breach, newest first: its title (the name when the catalog lacks it), sensitive ones marked.
    static func names(of a: Account, catalog: BreachCatalog?, grant: RevealGrant) -> [(text: String, sensitive: Bool)] {
        Disclosure.revealedBreaches(a.result, catalog: catalog, grant: grant).map { b in
            let title = Sanitizer.singleLine(b.hasDetails ? b.title : b.name)
            return (b.isSensitive ? msg("{1} (sensitive)", title) : title, b.isSensitive)
        }
    }
}
