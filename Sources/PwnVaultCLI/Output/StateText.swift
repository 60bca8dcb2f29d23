import FoundationEssentials
import PwnVaultCore

/// The one vocabulary of account states, the same in `list`, `show`, `check`, `reveal` and the ui:
/// never checked, clean, breached (N), with "N new" or "N to acknowledge", and "last check failed".
enum StateText {
    /// The saved answer, what is new or waits to be acknowledged, and whether the latest attempt
    /// failed: `breached (5, 2 new) · last check failed`.
    static func of(_ a: Account?, _ r: CheckResult) -> String {
        guard let a, showsFindings(r) else { return statusText(r, fresh: 0, waiting: 0) }
        return statusText(r, fresh: a.newFindings.count, waiting: a.unacknowledgedFindings.count, unlisted: unlisted(a))
    }

    /// `of(a, a.result)` without wrapping the account in an optional (a copy of it).
    static func of(_ a: Account) -> String {
        guard showsFindings(a.result) else { return statusText(a.result, fresh: 0, waiting: 0) }
        return statusText(a.result, fresh: a.newFindings.count, waiting: a.unacknowledgedFindings.count, unlisted: unlisted(a))
    }

    /// How many of the account's findings HIBP no longer lists (an empty vault of findings: none, at once).
    private static func unlisted(_ a: Account) -> Int {
        a.findings.isEmpty ? 0 : a.findings.reduce(0) { $0 + ($1.isListed ? 0 : 1) }
    }

    /// Whether `of` shows counts of findings for `r`: the findings are counted only then.
    private static func showsFindings(_ r: CheckResult) -> Bool { r.status == .clean || r.status == .breached }

    private static func statusText(_ r: CheckResult, fresh: Int, waiting: Int, unlisted: Int = 0) -> String {
        switch r.status {
        case .neverChecked: return msg("never checked")
        case .error: return msg("check failed")
        case .clean, .breached: break
        }
        let text: String
        if r.status == .clean {
            text = fresh > 0 ? msg("clean ({1} new)", fresh) : waiting > 0 ? msg("clean ({1} to acknowledge)", waiting) : msg("clean")
        } else {
            text = fresh > 0 ? msg("breached ({1}, {2} new)", r.breachCount, fresh)
                : waiting > 0 ? msg("breached ({1}, {2} to acknowledge)", r.breachCount, waiting) : msg("breached ({1})", r.breachCount)
        }
        // Found earlier, no longer listed by HIBP: still said (history, not a cache).
        let kept = unlisted > 0 ? msg("{1} · {2} no longer listed", text, unlisted) : text
        return r.lastFailure == nil ? kept : msg("{1} · last check failed", kept)
    }

    /// `2026-11-30 21:04`, local time.
    static func time(_ date: Date) -> String { LocalTime.minutes(date) }
}
