import PwnVaultCore

/// The key list (`?`).
struct HelpPage: Equatable {
    var text = ScrolledText()

    /// One message (a translation may break its lines elsewhere), split into the page's rows.
    static var lines: [String] {
        msg("""
        Everywhere
          ↑ ↓  j k        move (lists) or scroll (pages); PgUp PgDn Home End
          Enter           open: an account's result, a breach's details (Catalog, and Result: Tab
                          picks which of the account's breaches)
          Esc  Backspace  back
          /               filter the accounts (id, account, label or state: 'breached', 'to
                          acknowledge'), search the catalog (title, name, domain)
          c               the breach catalog
          ?               this list
          q  Ctrl-C       quit (the terminal is left as it was)

        Accounts and Result
          r               check the selected account now
          R               check every account that is due (paced like 'check --all'; Esc cancels);
                          when none is, R again checks every account shown anyway (the filter applies)
          a               acknowledge the account's findings (Result)
          n               add an account (typed without echo, then shown masked)
          i               import a vCard: type its path, then pick addresses (Space, * all)
          v               reveal the selected account with every breach, paste and stealer-log
                          website: asks the passphrase; ↑↓ PgUp PgDn Home End scroll, / find;
                          shown until another key, a focus loss or 30 s (10 s where focus changes
                          are not reported; refused in share mode and under GNU screen with altscreen off)

        Catalog
          s               sort by date, size or name

        Protection
          The screen is replaced by one neutral line when the window loses focus, when idle for
          the --idle time, and is cleared before Ctrl-Z stops pwnvault. Accounts are masked as
          everywhere else; in share mode only labels and ids appear.
        """).components(separatedBy: "\n")
    }
}
