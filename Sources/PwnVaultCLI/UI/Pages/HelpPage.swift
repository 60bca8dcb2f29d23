import PwnVaultCore

/// The key list (`?`): each key's description one message, laid out for the window's width under a
/// hanging indent, so a narrow window (or a translation's longer lines) wraps instead of cutting.
struct HelpPage: Equatable {
    var text = ScrolledText()

    /// The sections: a title and each key (as typed, never translated) with what it does.
    static var sections: [(title: String, keys: [(String, String)])] { [
        (msg("Everywhere"), [
            ("↑ ↓  j k", msg("move (lists) or scroll (pages); PgUp PgDn Home End")),
            ("Enter", msg("open: an account's result, a breach's details (Catalog, and Result: Tab picks which of the account's breaches)")),
            ("Esc  Backspace", msg("back")),
            ("/", msg("filter the accounts (id, account, label or state: 'breached', 'to acknowledge'), search the catalog (title, name, domain)")),
            ("c", msg("the breach catalog")),
            ("?", msg("this list")),
            ("q  Ctrl-C", msg("quit (the terminal is left as it was)")),
        ]),
        (msg("Accounts and Result"), [
            ("r", msg("check the selected account now")),
            ("R", msg("check every account that is due (paced like 'check --all'; Esc cancels); when none is, R again checks every account shown anyway (the filter applies)")),
            ("a", msg("acknowledge the account's findings (Result)")),
            ("n", msg("add an account (typed without echo, then shown masked)")),
            ("i", msg("import a vCard: type its path, then pick addresses (Space, * all)")),
            ("v", msg("reveal the selected account with every breach, paste and stealer-log website: asks the passphrase; ↑↓ PgUp PgDn Home End scroll, / find; shown until another key, a focus loss or 30 s (10 s where focus changes are not reported; refused in share mode and under GNU screen with altscreen off)")),
        ]),
        (msg("Catalog"), [
            ("s", msg("sort by date, size or name")),
        ]),
    ] }

    /// The paragraph under the keys.
    static var protection: (title: String, text: String) {
        (msg("Protection"), msg("The screen is replaced by one neutral line when the window loses focus, when idle for the --idle time, and is cleared before Ctrl-Z stops pwnvault. Accounts are masked as everywhere else; in share mode only labels and ids appear."))
    }

    /// The page's rows for a window `width` cells wide.
    static func lines(width: Int) -> [String] {
        var out: [String] = []
        for section in sections {
            out += [section.title]
            for (keys, what) in section.keys {
                out += TerminalCells.hanging("  " + TerminalCells.pad(keys, to: 16), what, width: width)
            }
            out.append("")
        }
        let (title, text) = protection
        return out + [title] + TerminalCells.wrap(text, to: width - 2).map { "  " + $0 }
    }
}
