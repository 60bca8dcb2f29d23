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
            out.append("never checked; run: pwnvault check '#\(account.id)'")
            return out
        case .error:
            let when = result.lastFailure.map { " (\(StateText.time($0.at)))" } ?? ""
            out.append(c.styled("the last check failed\(when): \(result.errorMessage ?? "unknown error")", .yellow))
        case .clean:
            out.append(c.styled(c.colors ? " NO BREACH FOUND " : "no breach found", .green))
        case .breached:
            let n = disclosed.total
            out.append(c.styled(c.colors ? " PWNED IN \(n) BREACH\(n == 1 ? "" : "ES") " : "pwned in \(n) breach\(n == 1 ? "" : "es")", .red))
        }
        if let at = result.checkedAt { out.append(c.styled("checked \(StateText.time(at))", .dim)) }
        if result.hasAnswer, let failure = result.lastFailure {
            // The saved answer stays; say that it is older than the latest attempt, and why that failed.
            out.append(c.styled("the latest check failed (\(StateText.time(failure.at))): \(failure.message); "
                           + "this is the result of \(result.checkedAt.map(StateText.time) ?? "an earlier check")", .yellow))
        }
        let fresh = account.newFindings
        // Pastes found by an earlier check with --pastes stay counted when the latest one did not ask.
        let pastes = max(result.pasteCount ?? 0, account.knownFindings.filter { $0.kind == .paste }.count)
        if pastes > 0 {
            let n = fresh.filter { $0.kind == .paste }.count
            out.append("also found in \(pastes) paste\(pastes == 1 ? "" : "s")" + (n > 0 ? " (\(n) NEW)" : ""))
        }
        let sites = account.knownFindings.filter { $0.kind == .stealerLog }.count
        if sites > 0 {
            let n = fresh.filter { $0.kind == .stealerLog }.count
            out.append("in the info-stealer logs of \(sites) website\(sites == 1 ? "" : "s")" + (n > 0 ? " (\(n) NEW)" : "")
                  + ": change the passwords saved on the infected device and check it for malware")
        }
        if !visible.isEmpty {
            out.append("")
            let rendering = BreachRendering(c)
            for b in visible { out += rendering.entry(b, in: disclosed) }
        }
        out += disclosed.countedNotes
        let waiting = account.unacknowledgedFindings
        if !waiting.isEmpty {
            // What the count is made of, each part listed above: breaches, pastes, stealer-log websites.
            let parts = FindingKind.allCases.compactMap { kind -> String? in
                let n = waiting.filter { $0.kind == kind }.count
                guard n > 0 else { return nil }
                switch kind {
                case .breach: return "\(n) breach\(n == 1 ? "" : "es")"
                case .paste: return "\(n) paste\(n == 1 ? "" : "s")"
                case .stealerLog: return "\(n) stealer-log website\(n == 1 ? "" : "s")"
                }
            }
            out.append("")
            out += c.wrapped("\(waiting.count) finding\(waiting.count == 1 ? "" : "s") not acknowledged (\(parts.joined(separator: ", "))); "
                             + "when dealt with: pwnvault ack '#\(account.id)'")
        }
        let years = Dictionary(grouping: visible.compactMap { $0.breachDate?.year }, by: { $0 }).mapValues(\.count)
        if years.count > 1 {
            out.append("")
            out.append("timeline")
            for year in years.keys.sorted() {
                out.append("  \(year)  " + String(repeating: "■", count: years[year]!) + " \(years[year]!)")
            }
        }
        return out
    }
}
