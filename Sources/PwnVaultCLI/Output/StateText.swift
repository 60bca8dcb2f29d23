import FoundationEssentials
import PwnVaultCore

/// The one vocabulary of account states, the same in `list`, `show`, `check`, `reveal` and the ui:
/// never checked, clean, breached (N), with "N to acknowledge", and "last check failed".
///
/// A finding nobody acknowledged yet is called "to acknowledge" in every stored view, whether the
/// latest check or an earlier one found it: a later check that finds nothing new changes no word.
/// "NEW" belongs to what a run reports (`check`'s lines, `watch`, notifications) and nowhere else.
enum StateText {
    /// The saved answer, what waits to be acknowledged, and whether the latest attempt failed:
    /// `breached (5, 2 to acknowledge) · last check failed`.
    static func of(_ a: Account?, _ r: CheckResult) -> String {
        guard let a, showsFindings(r) else { return statusText(r, waiting: 0) }
        return statusText(r, waiting: a.unacknowledgedFindings.count, unlisted: unlisted(a))
    }

    /// `of(a, a.result)` without wrapping the account in an optional (a copy of it).
    static func of(_ a: Account) -> String {
        guard showsFindings(a.result) else { return statusText(a.result, waiting: 0) }
        return statusText(a.result, waiting: a.unacknowledgedFindings.count, unlisted: unlisted(a))
    }

    /// How many of the account's findings HIBP no longer lists (an empty vault of findings: none, at once).
    private static func unlisted(_ a: Account) -> Int {
        a.findings.isEmpty ? 0 : a.findings.reduce(0) { $0 + ($1.isListed ? 0 : 1) }
    }

    /// Whether `of` shows counts of findings for `r`: the findings are counted only then.
    private static func showsFindings(_ r: CheckResult) -> Bool { r.status == .clean || r.status == .breached }

    private static func statusText(_ r: CheckResult, waiting: Int, unlisted: Int = 0) -> String {
        switch r.status {
        case .neverChecked: return msg("never checked")
        case .error: return msg("check failed")
        case .clean, .breached: break
        }
        let text: String
        if r.status == .clean {
            text = waiting > 0 ? msg("clean ({1} to acknowledge)", waiting) : msg("clean")
        } else {
            text = waiting > 0 ? msg("breached ({1}, {2} to acknowledge)", r.breachCount, waiting) : msg("breached ({1})", r.breachCount)
        }
        // Found earlier, no longer listed by HIBP: still said (history, not a cache).
        let kept = unlisted > 0 ? msg("{1} · {2} no longer listed", text, unlisted) : text
        return r.lastFailure == nil ? kept : msg("{1} · last check failed", kept)
    }

    /// `2026-11-30 21:04`, local time.
    static func time(_ date: Date) -> String { LocalTime.minutes(date) }

    /// `time(date)` and its shorter forms, longest first, for a column that gives way: `2026-12-03 14:33`,
    /// `today 14:33` (`yesterday 09:10`, `12-03 14:33`, `2025-12-03`), then `today` (`yesterday`,
    /// `12-03`, `2025-12`). A table takes the longest form that fits before it cuts anything else.
    static func timeForms(_ date: Date, now: Date) -> [String] {
        let full = time(date)
        guard let d = LocalTime.fields(date), let n = LocalTime.fields(now),
              let y = LocalTime.fields(now.addingTimeInterval(-86_400)) else { return [full] }
        let hm = d.hour.padded(width: 2) + ":" + d.minute.padded(width: 2)
        let monthDay = d.month.padded(width: 2) + "-" + d.day.padded(width: 2)
        if (d.year, d.month, d.day) == (n.year, n.month, n.day) { return [full, msg("today {1}", hm), msg("today")] }
        if (d.year, d.month, d.day) == (y.year, y.month, y.day) { return [full, msg("yesterday {1}", hm), msg("yesterday")] }
        if d.year == n.year, date <= now { return [full, monthDay + " " + hm, monthDay] }
        return [full, d.year.padded(width: 4) + "-" + monthDay, d.year.padded(width: 4) + "-" + d.month.padded(width: 2)]
    }

    /// How long ago, in a few cells (`5 min ago`, `3 h ago`, `2 d ago`; older: `12-03` or `2025-12`):
    /// the ui's shortest form of a time.
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds >= 0, seconds < 60 { return msg("just now") }
        if seconds >= 0, seconds < 3_600 { return msg("{1} min ago", Int(seconds / 60)) }
        if seconds >= 0, seconds < 86_400 { return msg("{1} h ago", Int(seconds / 3_600)) }
        if seconds >= 0, seconds < 7 * 86_400 { return msg("{1} d ago", Int(seconds / 86_400)) }
        return timeForms(date, now: now).last ?? time(date)
    }
}
