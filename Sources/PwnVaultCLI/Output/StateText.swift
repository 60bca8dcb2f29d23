import FoundationEssentials
import PwnVaultCore

/// The one vocabulary of account states, the same in `list`, `show`, `check`, `reveal` and the ui:
/// never checked, clean, breached (N), with "N new" or "N to acknowledge", and "last check failed".
enum StateText {
    /// The saved answer, what is new or waits to be acknowledged, and whether the latest attempt
    /// failed: `breached (5, 2 new) · last check failed`.
    static func of(_ a: Account?, _ r: CheckResult) -> String {
        guard let a, showsFindings(r) else { return statusText(r, fresh: 0, waiting: 0) }
        return statusText(r, fresh: a.newFindings.count, waiting: a.unacknowledgedFindings.count)
    }

    /// `of(a, a.result)` without wrapping the account in an optional (a copy of it).
    static func of(_ a: Account) -> String {
        guard showsFindings(a.result) else { return statusText(a.result, fresh: 0, waiting: 0) }
        return statusText(a.result, fresh: a.newFindings.count, waiting: a.unacknowledgedFindings.count)
    }

    /// Whether `of` shows counts of findings for `r`: the findings are counted only then.
    private static func showsFindings(_ r: CheckResult) -> Bool { r.status == .clean || r.status == .breached }

    private static func statusText(_ r: CheckResult, fresh: Int, waiting: Int) -> String {
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
        return r.lastFailure == nil ? text : msg("{1} · last check failed", text)
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
