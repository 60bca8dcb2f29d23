import PwnVaultCore

/// One account's latest result as text, one line each: what `show` prints and the ui's result screen.
enum AccountResultText {
    /// The result as text, one line each: what `show` prints on a terminal, and the result screen of `ui`.
    static func lines(_ account: Account, disclosed: DisclosedBreaches, console c: Console) -> [String] {
        let result = account.result
        let visible = disclosed.shown
        var out: [String] = []
        out.append(c.heading(account))
        switch result.status {
        case .neverChecked:
            out.append(msg("never checked; run: pwnvault check '#{1}'", account.id))
            return out
        case .error:
            let error = result.errorMessage ?? msg("unknown error")
            out.append(c.styled(result.lastFailure.map { msg("the last check failed ({1}): {2}", StateText.time($0.at), error) }
                                ?? msg("the last check failed: {1}", error), .yellow))
        case .clean where disclosed.unlistedCount > 0:
            // Not green: the account was in breaches HIBP no longer lists (listed below).
            out.append(c.styled(msg("HIBP lists no breach for it now"), .yellow))
        case .clean:
            out.append(c.styled(c.colors ? msg(" NO BREACH FOUND ") : msg("no breach found"), .green))
        case .breached:
            let n = disclosed.total - disclosed.unlistedCount
            out.append(c.styled(c.colors ? msg(one: " PWNED IN {1} BREACH ", many: " PWNED IN {1} BREACHES ", count: n, n)
                                : msg(one: "pwned in {1} breach", many: "pwned in {1} breaches", count: n, n), .red))
        }
        if let at = result.checkedAt { out.append(c.styled(msg("checked {1}", StateText.time(at)), .dim)) }
        if result.hasAnswer, disclosed.unlistedCount > 0 {
            let n = disclosed.unlistedCount
            out += c.wrapped(msg(one: "found earlier in {1} breach that HIBP no longer lists (an opt-out, a retired breach or a wrong answer): the account was in it, and what leaked is still out",
                                          many: "found earlier in {1} breaches that HIBP no longer lists (an opt-out, a retired breach or a wrong answer): the account was in them, and what leaked is still out",
                                          count: n, n)).map { c.styled($0, .yellow) }
        }
        if result.status == .clean, let coverage = CoverageText.line(for: account.kind) { out += c.wrapped(coverage).map { c.styled($0, .dim) } }
        if result.hasAnswer, let failure = result.lastFailure {
            // The saved answer stays; say that it is older than the latest attempt, and why that failed.
            out.append(c.styled(msg("the latest check failed ({1}): {2}; this is the result of {3}", StateText.time(failure.at), failure.message,
                                    result.checkedAt.map(StateText.time) ?? msg("an earlier check")), .yellow))
        }
        // A stored view: what waits is "to acknowledge" (counted below), whichever check found it.
        // Pastes found by an earlier check with --pastes stay counted when the latest one did not ask.
        let pastes = max(result.pasteCount ?? 0, account.knownFindings.filter { $0.kind == .paste }.count)
        if pastes > 0 {
            out.append(msg(one: "also found in {1} paste", many: "also found in {1} pastes", count: pastes, pastes))
        }
        let sites = account.knownFindings.filter { $0.kind == .stealerLog }.count
        if sites > 0 {
            out.append(msg(one: "in the info-stealer logs of {1} website: change the passwords saved on the infected device and check it for malware",
                           many: "in the info-stealer logs of {1} websites: change the passwords saved on the infected device and check it for malware",
                           count: sites, sites))
        }
        if !visible.isEmpty {
            out.append("")
            let rendering = BreachRendering(c)
            for b in visible { out += rendering.entry(b, in: disclosed) }
            // Advice about the person rather than one site (phishing, SIM swaps, …): once, for every
            // breach above not acknowledged yet.
            let common = BreachAdvice.accountWide(for: visible.filter { !disclosed.isAcknowledged($0) })
            if !common.isEmpty {
                out.append("")
                out.append(msg("because of these breaches:"))
                for advice in common { out += c.hanging("  → ", advice) }
            }
        }
        out += disclosed.countedNotes
        let waiting = account.unacknowledgedFindings
        if !waiting.isEmpty {
            // What the count is made of, each part listed above: breaches, pastes, stealer-log websites.
            let parts = FindingKind.allCases.compactMap { kind -> String? in
                let n = waiting.filter { $0.kind == kind }.count
                guard n > 0 else { return nil }
                switch kind {
                case .breach: return msg(one: "{1} breach", many: "{1} breaches", count: n, n)
                case .paste: return msg(one: "{1} paste", many: "{1} pastes", count: n, n)
                case .stealerLog: return msg(one: "{1} stealer-log website", many: "{1} stealer-log websites", count: n, n)
                }
            }
            out.append("")
            out += c.wrapped(msg(one: "{1} finding to acknowledge ({2}); when dealt with: pwnvault ack '#{3}'",
                                 many: "{1} findings to acknowledge ({2}); when dealt with: pwnvault ack '#{3}'",
                                 count: waiting.count, waiting.count, parts.joined(separator: msg(", ")), account.id))
        }
        // The timeline only where it tells more than the dated list above: several years, and one of
        // them with more than one breach (three rows of `■ 1` repeat the dates).
        let years = Dictionary(grouping: visible.compactMap { $0.breachDate?.year }, by: { $0 }).mapValues(\.count)
        if years.count > 1, years.values.contains(where: { $0 > 1 }) {
            out.append("")
            out.append(msg("timeline"))
            for year in years.keys.sorted() {
                out.append("  \(year)  " + String(repeating: "■", count: years[year]!) + " \(years[year]!)")
            }
        }
        return out
    }
}
