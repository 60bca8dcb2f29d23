import FoundationEssentials
import PwnVaultCore

/// `pwnvault ui`'s screens and keys: Accounts (filter as you type), Result, Catalog (search, sort),
/// Detail, and the key list. Everything shown comes through the disclosure gate (`Disclosure`) and the
/// one breach rendering (`BreachRendering`, `ShowCommand.lines`); `FullScreen` draws it and protects it.
final class VaultUI: FullScreenApp {
    enum Page: Equatable { case accounts, result(id: Int), catalog, detail(name: String), help, pick }
    enum Sort: String, CaseIterable { case date, size, name }

    struct AccountRow {
        let id: Int
        let cells: [String]   // #id, account, label, status, new, last check
        let haystack: Haystack
        let breached: Bool
    }

    struct CatalogRow {
        let breach: Breach
        let cells: [String]   // date, title, domain, accounts
        let haystack: Haystack
    }

    let context: Context
    var session: VaultSession
    let catalog: BreachCatalog?
    let shareReason: String?
    let colors: Bool
    var stack: [Page] = [.accounts]
    var message: String?

    var accountRows: [AccountRow] = []
    var shownAccounts: [Int] = []        // indices into accountRows
    var filter = ""
    var typingFilter = false
    var accountCursor = ListCursor()

    var catalogRows: [CatalogRow] = []
    var shownBreaches: [Int] = []
    var query = ""
    var typingQuery = false
    var sort = Sort.date
    var catalogCursor = ListCursor()

    var scroll = 0                        // result, detail and help pages
    var lastSize = (columns: 80, rows: 24)
    /// Background work (a check), when running.
    var work: UIWork?

    /// Why a passphrase is being typed (on the status line, never shown), and what was typed.
    enum Asking { case reveal(id: Int), unlock, add }
    var asking: (purpose: Asking, field: SecretField)?
    /// The one account shown unmasked, with all reveal shows of it (`RevealedLines`, scrolled by the
    /// keys `revealedKeeps` lets through), until another key, a focus loss, a stop or `revealSeconds`.
    var revealed: (id: Int, text: String, until: Double, pager: TextPager)?
    /// Something was revealed in this run: the idle lock then needs the passphrase.
    var revealedSomething = false
    /// How long a revealed account stays, where the screen hides it on focus loss (as `reveal`).
    static let revealSeconds = PrivateScreen.defaultTimeout
    /// What sits between the terminal and us and keeps focus changes away (tmux with focus-events off,
    /// GNU screen), from `FocusObstacle.detect`.
    var focusObstacle: FocusObstacle?
    /// Under GNU screen: whether its alternate screen works (nil elsewhere); `v` reveals only if so.
    var alternateScreen: AlternateScreenProbe.Verdict?
    /// A longer message than the status line holds, shown above it until the next key.
    var notice: String?
    /// What the screen knows about focus reporting, as of the last key.
    var focusReporting: FocusReporting = .unknown

    /// Why a revealed account cannot be hidden on focus loss here, with the fix; nil where it can.
    var focusProblem: (reason: String, fix: String)? {
        if let focusObstacle { return (focusObstacle.reason, focusObstacle.fix) }
        return FocusWarning.unreported(focusReporting)
    }

    /// How long a revealed account stays: 30 s, or 10 s where focus loss cannot hide it (as `reveal`).
    var revealSeconds: Double { focusProblem == nil ? VaultUI.revealSeconds : PrivateScreen.unfocusableTimeout }

    /// reveal's warning, said while the passphrase for `v` is asked and while an account is revealed,
    /// where focus loss cannot hide it.
    var focusWarning: String? {
        guard let problem = focusProblem else { return nil }
        return FocusWarning.line(reason: problem.reason, fix: problem.fix, closesAfter: Int(revealSeconds))
    }

    /// Import: the vCard's path as typed (a path, shown), then the pick list of its addresses.
    var typingPath: String?
    struct PickItem { let account: ParsedAccount; let label: AccountLabel?; let shown: String; let inVault: Int? }
    var pickItems: [PickItem] = []
    var picked: Set<Int> = []
    var pickCursor = ListCursor()
    var pickSource = ""
    var unlockFailed = false

    init(context: Context, session: VaultSession, catalog: BreachCatalog?) {
        self.context = context
        self.session = session
        self.catalog = catalog
        self.shareReason = context.shareReason
        self.colors = context.console.colors
        loadAccounts()
        catalogRows = (catalog?.breaches ?? []).map { b in
            let title = BreachRendering(context.console).title(b)
            return CatalogRow(breach: b, cells: [b.breachDate.map { "\($0)" } ?? "-", title,
                                                 b.domain.isEmpty ? "-" : Sanitizer.singleLine(b.domain), thousands(b.pwnCount)],
                              haystack: Haystack([Sanitizer.singleLine(b.title), Sanitizer.singleLine(b.name), Sanitizer.singleLine(b.domain)]))
        }
        sortCatalog()
    }

    var page: Page { stack.last ?? .accounts }
    var disclosure: Disclosure { context.console.disclosure }

    // MARK: data

    func loadAccounts() {
        let selectedID = shownAccounts.isEmpty ? nil : accountRows[shownAccounts[min(accountCursor.selected, shownAccounts.count - 1)]].id
        accountRows = session.payload.accounts.map { a in
            let shown = disclosure.account(a)
            let label = disclosure.label(a) ?? ""
            let fresh = a.newFindings.count
            let state = StateText.of(a)
            let cells = ["#\(a.id)", shown, label, state, fresh > 0 ? "\(fresh) NEW" : "",
                         a.result.checkedAt.map(StateText.time) ?? "-"]
            // Filtering sees only what the screen shows (an unmasked address never answers a search):
            // the id, the account as shown, the label and the state ("/breached", "/to acknowledge").
            return AccountRow(id: a.id, cells: cells, haystack: Haystack(["#\(a.id)", shown, label, state]), breached: a.result.status == .breached)
        }
        applyFilter(narrowing: false)
        if let selectedID, let i = shownAccounts.firstIndex(where: { accountRows[$0].id == selectedID }) {
            accountCursor.selected = i
        }
    }

    func applyFilter(narrowing: Bool) {
        let needle = Haystack.needle(filter)
        let from = narrowing ? shownAccounts : Array(accountRows.indices)
        shownAccounts = from.filter { accountRows[$0].haystack.contains(needle) }
        accountCursor.keepVisible(count: shownAccounts.count, height: listHeight)
    }

    func applyQuery(narrowing: Bool) {
        let needle = Haystack.needle(query)
        let from = narrowing ? shownBreaches : Array(catalogRows.indices)
        shownBreaches = from.filter { catalogRows[$0].haystack.contains(needle) }
        catalogCursor.keepVisible(count: shownBreaches.count, height: listHeight)
    }

    func sortCatalog() {
        switch sort {
        case .date:
            let none = BreachDay(year: 1, month: 1, day: 1)!
            catalogRows.sort { ($0.breach.breachDate ?? none, $0.breach.name) > ($1.breach.breachDate ?? none, $1.breach.name) }
        case .size:
            catalogRows.sort { $0.breach.pwnCount != $1.breach.pwnCount ? $0.breach.pwnCount > $1.breach.pwnCount : $0.breach.name < $1.breach.name }
        case .name:
            catalogRows.sort { $0.breach.title.lowercased() < $1.breach.title.lowercased() }
        }
        applyQuery(narrowing: false)
        catalogCursor = ListCursor()
    }

    var selectedAccount: Account? {
        guard !shownAccounts.isEmpty else { return nil }
        let id = accountRows[shownAccounts[min(accountCursor.selected, shownAccounts.count - 1)]].id
        return session.payload.accounts.first { $0.id == id }
    }

    // MARK: drawing

    /// Rows between the title and header lines and the status line.
    var listHeight: Int { max(1, lastSize.rows - 3) }
    var pageHeight: Int { max(1, lastSize.rows - 2) }

    func console(width: Int) -> Console {
        Console(terminal: TerminalCapabilities(stdoutIsTerminal: true, stderrIsTerminal: true, stdinIsTerminal: true,
                                               colorsOnStdout: colors, colorsOnStderr: colors, columns: width),
                policy: context.console.policy, colorsAllowed: colors, writeOut: { _ in }, writeErr: { _ in })
    }

    func lines(columns: Int, rows: Int) -> [String] {
        lastSize = (columns, rows)
        var out: [String] = []
        switch page {
        case .accounts:
            out.append(bar("pwnvault · Accounts (\(shownAccounts.count)\(filter.isEmpty ? "" : " of \(accountRows.count)"))", columns))
            out += accountLines(columns: columns)
        case .catalog:
            out.append(bar("pwnvault · Catalog (\(shownBreaches.count)\(query.isEmpty ? "" : " of \(catalogRows.count)")) · sorted by \(sort.rawValue)", columns))
            out += catalogLines(columns: columns)
        case let .result(id):
            out.append(bar("pwnvault · Result", columns))
            out += scrolled(resultLines(id: id, width: columns - 1), rows: rows - 2)
        case let .detail(name):
            out.append(bar("pwnvault · Breach", columns))
            out += scrolled(detailLines(name: name, width: columns - 1), rows: rows - 2)
        case .pick:
            out.append(bar("pwnvault · Import from \(pickSource): \(picked.count) of \(pickItems.count) picked", columns))
            out += pickLines(columns: columns)
        case .help:
            out.append(bar("pwnvault · Keys", columns))
            out += scrolled(VaultUI.helpLines, rows: rows - 2)
        }
        if let revealed {
            out = [bar("pwnvault · Revealed #\(revealed.id)", columns)] + revealed.pager.view(columns: columns, rows: rows - 2)
        }
        while out.count < rows - 1 { out.append("") }
        out = Array(out.prefix(rows - 1))
        if let notice = focusNotice(columns: columns, rows: rows) { out = Array(out.prefix(rows - 1 - notice.count)) + notice }
        out.append(statusLine(columns))
        return out
    }

    /// Above the status line (wrapped, at most a third of the rows): `notice` until the next key, or
    /// reveal's warning while the passphrase for `v` is typed and while an account is revealed, where
    /// focus loss cannot hide it.
    func focusNotice(columns: Int, rows: Int) -> [String]? {
        var revealing = revealed != nil
        if let asking, case .reveal = asking.purpose { revealing = true }
        guard let text = notice ?? (revealing ? focusWarning : nil) else { return nil }
        return TerminalCells.wrap("pwnvault: " + text, to: columns).prefix(max(1, rows / 3)).map { "\u{1B}[1m" + $0 + "\u{1B}[0m" }
    }

    func bar(_ text: String, _ columns: Int) -> String {
        "\u{1B}[7m" + TerminalCells.pad(TerminalCells.truncate(text, to: columns), to: columns) + "\u{1B}[0m"
    }

    func statusLine(_ columns: Int) -> String {
        var left: String
        if let asking, case let .reveal(id) = asking.purpose {
            left = "passphrase to reveal #\(id) (not shown as you type; Enter, Esc cancels): "
        } else if let asking, case .add = asking.purpose {
            left = "new account: e-mail, phone or username (not shown as you type; Enter adds, Esc cancels): "
        } else if let revealed {
            left = "#\(revealed.id) revealed: ↑↓ PgUp PgDn Home End scroll, / find; any other key hides it (at most \(Int(revealSeconds)) s)"
        } else if let typingPath {
            left = "import a vCard: path " + typingPath + "▏  (Enter reads it, Esc cancels)"
        } else if typingFilter { left = "filter: " + filter + "▏  (Enter keeps it, Esc clears)" }
        else if typingQuery { left = "search: " + query + "▏  (Enter keeps it, Esc clears)" }
        else if let work { left = work.status }
        else if let message { left = message }
        else { left = hints }
        var right = ""
        if shareReason != nil { right = " SHARE MODE " }
        let room = max(0, columns - TerminalCells.width(right))
        let text = TerminalCells.pad(TerminalCells.truncate(left, to: room), to: room)
        // Black on yellow, whatever the theme (reverse video of yellow was white on yellow where the
        // background is white); without colours bold reverse video, like the rest of the line.
        let marker = colors ? "\u{1B}[1;30;43m" : "\u{1B}[1;7m"
        return "\u{1B}[7m" + text + "\u{1B}[0m" + (right.isEmpty ? "" : marker + right + "\u{1B}[0m")
    }

    var hints: String {
        switch page {
        case .accounts: return "↑↓/jk move  Enter result  / filter  c catalog  r check  R check due  v reveal  ? keys  q quit"
        case .catalog: return "↑↓/jk move  Enter detail  / search  s sort  Esc back  ? keys  q quit"
        case .result: return "↑↓ scroll  a acknowledge  r check  Esc back  ? keys  q quit"
        case .detail, .help: return "↑↓ scroll  Esc back  q quit"
        case .pick: return "↑↓/jk move  Space pick  * all/none  Enter import the picked  Esc cancel"
        }
    }

    func accountLines(columns: Int) -> [String] {
        let widths = [6, 26, 0, 16, 7, 16]
        let fixed = widths.reduce(0, +) + 2 * (widths.count - 1)
        var w = widths
        w[2] = max(6, columns - fixed)
        let header = "\u{1B}[1m" + row(["ID", "ACCOUNT", "LABEL", "STATUS", "NEW", "LAST CHECK"], w, columns) + "\u{1B}[0m"
        var out = [header]
        if shownAccounts.isEmpty {
            out.append(accountRows.isEmpty ? "the vault holds no account: press q, then 'pwnvault add'" : "no account matches the filter")
            return out
        }
        accountCursor.keepVisible(count: shownAccounts.count, height: listHeight)
        let end = min(shownAccounts.count, accountCursor.top + listHeight)
        for i in accountCursor.top..<end {
            let r = accountRows[shownAccounts[i]]
            var cells = r.cells
            if let revealed, revealed.id == r.id { cells[1] = revealed.text }
            let text = row(cells, w, columns)
            if i == accountCursor.selected { out.append("\u{1B}[7m" + text + "\u{1B}[0m") }
            else if r.breached && colors { out.append("\u{1B}[31m" + text + "\u{1B}[0m") }
            else { out.append(text) }
        }
        return out
    }

    func catalogLines(columns: Int) -> [String] {
        var w = [10, 0, 22, 13]
        w[1] = max(8, columns - (10 + 22 + 13 + 6))
        var out = ["\u{1B}[1m" + row(["DATE", "TITLE", "DOMAIN", "ACCOUNTS"], w, columns, right: [3]) + "\u{1B}[0m"]
        if catalogRows.isEmpty { return out + ["the breach catalog is not cached yet: press q, then 'pwnvault breaches'"] }
        if shownBreaches.isEmpty { return out + ["no breach matches the search"] }
        catalogCursor.keepVisible(count: shownBreaches.count, height: listHeight)
        let end = min(shownBreaches.count, catalogCursor.top + listHeight)
        for i in catalogCursor.top..<end {
            let text = row(catalogRows[shownBreaches[i]].cells, w, columns, right: [3])
            out.append(i == catalogCursor.selected ? "\u{1B}[7m" + text + "\u{1B}[0m" : text)
        }
        return out
    }

    /// Cells fitted to `widths` (cut with … where too long), two spaces apart, padded to the line.
    func row(_ cells: [String], _ widths: [Int], _ columns: Int, right: Set<Int> = []) -> String {
        var parts: [String] = []
        for (i, cell) in cells.enumerated() {
            let cut = TerminalCells.truncate(cell, to: widths[i])
            let pad = String(repeating: " ", count: max(0, widths[i] - TerminalCells.width(cut)))
            parts.append(right.contains(i) ? pad + cut : cut + pad)
        }
        return TerminalCells.pad(TerminalCells.truncate(parts.joined(separator: "  "), to: columns), to: columns)
    }

    func scrolled(_ lines: [String], rows: Int) -> [String] {
        scroll = min(max(0, scroll), max(0, lines.count - rows))
        return Array(lines.dropFirst(scroll).prefix(rows))
    }

    func resultLines(id: Int, width: Int) -> [String] {
        guard let a = session.payload.accounts.first(where: { $0.id == id }) else { return ["this account is no longer in the vault"] }
        let c = console(width: width)
        let disclosed = c.disclosure.breaches(of: a, catalog: catalog)
        return ShowCommand.lines(a, disclosed: disclosed, console: c)
    }

    func detailLines(name: String, width: Int) -> [String] {
        guard let b = catalog?.breach(named: name) else { return ["no such breach in the catalog"] }
        return BreachRendering(console(width: width)).details(b)
    }

    static let helpLines = [
        "Everywhere",
        "  ↑ ↓  j k        move (lists) or scroll (pages); PgUp PgDn Home End",
        "  Enter           open: an account's result, a breach's details",
        "  Esc  Backspace  back",
        "  /               filter the accounts, search the catalog (title, name, domain)",
        "  c               the breach catalog",
        "  ?               this list",
        "  q  Ctrl-C       quit (the terminal is left as it was)",
        "",
        "Accounts and Result",
        "  r               check the selected account now",
        "  R               check every account that is due (paced like 'check --all'; Esc cancels)",
        "  a               acknowledge the account's findings (Result)",
        "  n               add an account (typed without echo, then shown masked)",
        "  i               import a vCard: type its path, then pick addresses (Space, * all)",
        "  v               reveal the selected account with every breach, paste and stealer-log",
        "                  website: asks the passphrase; ↑↓ PgUp PgDn Home End scroll, / find;",
        "                  shown until another key, a focus loss or 30 s (10 s where focus changes",
        "                  are not reported; refused in share mode and under GNU screen with altscreen off)",
        "",
        "Catalog",
        "  s               sort by date, size or name",
        "",
        "Protection",
        "  The screen is replaced by one neutral line when the window loses focus, when idle for",
        "  the --idle time, and is cleared before Ctrl-Z stops pwnvault. Accounts are masked as",
        "  everywhere else; in share mode only labels and ids appear.",
    ]

    // MARK: keys

    func handle(_ key: UIKey, screen: FullScreen) throws -> FullScreen.Answer {
        message = nil
        notice = nil
        focusReporting = screen.focusReporting
        if let work, !work.isRunning { settle(work) }   // ended since the last tick
        if revealed != nil { if !revealedKeeps(key) { revealed = nil }; return .stay }   // unmasked only until a key
        if asking != nil { passphraseKey(key); return .stay }
        if typingPath != nil { pathKey(key); return .stay }
        if typingFilter || typingQuery { typed(key); return .stay }
        if let work, work.isRunning {
            if key == .escape || key == .char("x") { work.cancel(); return .stay }
        }
        switch key {
        case .char("q"), .char("Q"): return .quit
        case .escape where page == .pick, .backspace where page == .pick:
            stack.removeLast()
            message = "nothing imported"
            return .stay
        case .char("?"): if page != .help { push(.help) }; return .stay
        case .escape, .backspace, .left:
            if page == .accounts {
                if !filter.isEmpty { filter = ""; applyFilter(narrowing: false) }
            } else { stack.removeLast(); scroll = 0 }
            return .stay
        case .char("c"):
            if page != .catalog { push(.catalog) }
            return .stay
        default: break
        }
        switch page {
        case .accounts: accountsKey(key)
        case .catalog: catalogKey(key)
        case .result: resultKey(key)
        case .detail, .help: scrollKey(key)
        case .pick: pickKey(key)
        }
        return .stay
    }

    func push(_ p: Page) { stack.append(p); scroll = 0 }

    func typed(_ key: UIKey) {
        let editing = typingFilter
        var text = editing ? filter : query
        var narrowing = false
        switch key {
        case .enter: typingFilter = false; typingQuery = false; return
        case .escape: text = ""; typingFilter = false; typingQuery = false
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .control(0x15): text = ""   // Ctrl-U
        case let .char(c): text.append(c); narrowing = true
        case .up, .down, .pageUp, .pageDown:
            if editing { accountsKey(key) } else { catalogKey(key) }
            return
        default: return
        }
        if editing { filter = text; applyFilter(narrowing: narrowing) } else { query = text; applyQuery(narrowing: narrowing) }
    }

    /// Moves in a list; true when the key was a movement.
    func moved(_ key: UIKey, _ cursor: inout ListCursor, count: Int) -> Bool {
        let h = listHeight
        switch key {
        case .up, .char("k"), .wheelUp: cursor.move(-1, count: count, height: h)
        case .down, .char("j"), .wheelDown: cursor.move(1, count: count, height: h)
        case .pageUp: cursor.move(-h, count: count, height: h)
        case .pageDown, .char(" "): cursor.move(h, count: count, height: h)
        case .home, .char("g"): cursor.move(-count, count: count, height: h)
        case .end, .char("G"): cursor.move(count, count: count, height: h)
        case let .click(_, row) where row >= 2 && row < 2 + h:
            cursor.selected = cursor.top + row - 2
            cursor.keepVisible(count: count, height: h)
        default: return false
        }
        return true
    }

    func accountsKey(_ key: UIKey) {
        if moved(key, &accountCursor, count: shownAccounts.count) { return }
        switch key {
        case .char("/"): typingFilter = true
        case .enter, .right: if let a = selectedAccount { push(.result(id: a.id)) }
        case .char("r"): if let a = selectedAccount { startCheck([a.id], what: "#\(a.id)") }
        case .char("R"): startCheckDue()
        case .char("v"): if let a = selectedAccount { startReveal(a.id) }
        case .char("n"): asking = (.add, SecretField())
        case .char("i"): typingPath = ""
        default: break
        }
    }

    func catalogKey(_ key: UIKey) {
        if moved(key, &catalogCursor, count: shownBreaches.count) { return }
        switch key {
        case .char("/"): typingQuery = true
        case .char("s"):
            sort = Sort.allCases[(Sort.allCases.firstIndex(of: sort)! + 1) % Sort.allCases.count]
            sortCatalog()
        case .enter, .right:
            if !shownBreaches.isEmpty {
                push(.detail(name: catalogRows[shownBreaches[min(catalogCursor.selected, shownBreaches.count - 1)]].breach.name))
            }
        default: break
        }
    }

    func resultKey(_ key: UIKey) {
        guard case let .result(id) = page else { return }
        switch key {
        case .char("a"): acknowledge(id)
        case .char("r"): startCheck([id], what: "#\(id)")
        default: scrollKey(key)
        }
    }

    func scrollKey(_ key: UIKey) {
        let h = pageHeight
        switch key {
        case .up, .char("k"), .wheelUp: scroll -= 1
        case .down, .char("j"), .wheelDown: scroll += 1
        case .pageUp: scroll -= h
        case .pageDown, .char(" "): scroll += h
        case .home, .char("g"): scroll = 0
        case .end, .char("G"): scroll = Int.max / 2
        default: break
        }
        scroll = max(0, scroll)
    }

    func acknowledge(_ id: Int) {
        let now = context.now()
        do {
            let n = try session.update { payload -> Int in
                guard let i = payload.accounts.firstIndex(where: { $0.id == id }) else { return 0 }
                return payload.accounts[i].acknowledge(at: now)
            }
            message = n == 0 ? "nothing to acknowledge for #\(id)" : "#\(id): acknowledged \(n) finding\(n == 1 ? "" : "s")"
            loadAccounts()
        } catch let error as UserFacingError {
            message = "could not save: " + error.message
        } catch {
            message = "could not save the vault"
        }
    }

    // MARK: background work

    var isBusy: Bool { work?.isRunning == true || revealed != nil }

    func tick() -> Bool {
        if let revealed, TerminalClock.now >= revealed.until { self.revealed = nil; return true }
        guard let work, work.takeChanged() else { return false }
        settle(work)
        return true
    }

    /// Records the results `work` has queued and, once it has ended, puts its closing line in the
    /// status line and lets it go. Also done before each key: a check can end between a tick and the
    /// next (the screen already showing "check cancelled" from its status), and an `R` typed then was
    /// ignored as if the check were still running.
    private func settle(_ work: UIWork) {
        let results = work.takeResults()
        let saved = results.isEmpty || record(results)
        if !work.isRunning {
            if saved { message = work.status }   // else "could not save: …" stays: it matters more
            self.work = nil
        }
    }

    /// Saves check results as they come (what `check` saves), on the interface's own thread.
    /// Whether they were saved (if not, the status line says why).
    func record(_ results: [(id: Int, attempt: CheckAttempt)]) -> Bool {
        defer { loadAccounts() }
        do {
            try session.update { payload in
                for (id, attempt) in results {
                    if let i = payload.accounts.firstIndex(where: { $0.id == id }) { _ = payload.accounts[i].record(attempt) }
                }
            }
            return true
        } catch let error as UserFacingError {
            message = "could not save: " + error.message
        } catch {
            message = "could not save the vault"
        }
        return false
    }

    /// Focus lost, a stop or the idle lock: nothing stays unmasked, a half-typed passphrase is dropped.
    func hide() {
        revealed = nil
        if let asking, case .unlock = asking.purpose {} else if let asking { _ = asking.field.take(); self.asking = nil }
    }

    // MARK: reveal

    func startReveal(_ id: Int) {
        if let shareReason { message = "reveal is refused in share mode (\(shareReason))"; return }
        if let alternateScreen, alternateScreen != .works {
            message = "nothing revealed (GNU screen's scrollback would keep it)"
            notice = "reveal is refused: " + AlternateScreenProbe.problem(confirmed: alternateScreen == .ignored)
                + ". Fix: " + AlternateScreenProbe.fix
            return
        }
        asking = (.reveal(id: id), SecretField())
    }

    func passphraseKey(_ key: UIKey) {
        guard let asking else { return }
        switch key {
        case let .char(c): asking.field.append(c)
        case .backspace: asking.field.removeLast()
        case .escape:
            _ = asking.field.take()
            self.asking = nil
            if case .add = asking.purpose { message = "nothing added" } else { message = "nothing revealed" }
        case .enter:
            self.asking = nil
            switch asking.purpose {
            case let .reveal(id): reveal(id, passphrase: asking.field.take())
            case .add: add(asking.field.take())
            case .unlock: break
            }
        default: break
        }
    }

    /// Opens the vault again with the typed passphrase (the proof `Disclosure.revealed` needs).
    func opened(with passphrase: SecretBytes) -> VaultSession? {
        guard let location = try? context.vaultLocation() else { return nil }
        return try? VaultSession.open(at: location, keyring: context.keyring, requirePassphrase: true) { _ in passphrase }
    }

    func reveal(_ id: Int, passphrase: SecretBytes) {
        guard let opened = opened(with: passphrase), let grant = opened.revealGrant,
              let account = opened.payload.accounts.first(where: { $0.id == id }) else {
            message = "wrong passphrase: nothing revealed"
            return
        }
        let text = RevealedLines.lines(for: account, status: StateText.of(account), catalog: catalog, grant: grant)
        revealed = (id, Disclosure.revealed(account, grant: grant), TerminalClock.now + revealSeconds, TextPager(lines: text))
        revealedSomething = true
    }

    /// Whether `key` scrolls or searches the revealed text (it stays); any other key hides it.
    func revealedKeeps(_ key: UIKey) -> Bool {
        guard var r = revealed else { return false }
        var typed = key == .backspace || key == .enter
        if case .char = key { typed = true }
        // Only keys that mean nothing else here: letters keep hiding it at once, n and N once a search was made.
        var scrolls: [UIKey] = [.up, .down, .pageUp, .pageDown, .home, .end, .char("/")]
        if r.pager.query != nil { scrolls += [.char("n"), .char("N")] }
        guard r.pager.isTyping ? typed : scrolls.contains(key) else { return false }
        r.pager.take(key, columns: lastSize.columns, rows: lastSize.rows - 2)
        revealed = r
        return true
    }

    // MARK: add

    /// Adds the typed account (never drawn: the row shows it masked, as everywhere). What the adder
    /// would warn about on stderr (look-alikes, by id) goes to the status line instead.
    func add(_ typed: SecretBytes) {
        let text = typed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingWhitespace()
        guard !text.isEmpty else { message = "nothing added"; return }
        let parsed: ParsedAccount
        do {
            parsed = try AccountParser.parse(text, phones: context.phoneNumbering)
        } catch let e as PhoneLibraryError {
            message = "not added: \(e.message)"
            return
        } catch AccountParseError.phoneWithoutRegion {
            message = "not added: \(AccountParseError.phoneWithoutRegion.message) (write it as +44 7700 900123)"
            return
        } catch {
            message = "not added: not an e-mail address, a phone number or a username pwnvault understands"
            return
        }
        let warnings = Collector.Box<[String]>(initial: [])
        let quiet = Console(terminal: context.console.terminal, policy: context.console.policy, colorsAllowed: false,
                            writeOut: { _ in }, writeErr: { text in warnings.update { $0.append(text.trimmingWhitespaceAndNewlines()) } })
        do {
            let outcomes = try AccountAdder.add([(parsed, nil)], to: session, now: context.now(), phones: context.phoneNumbering, console: quiet)
            switch outcomes.first {
            case let .added(a)?: message = "added #\(a.id); r checks it"
            case let .alreadyIn(id)?: message = "already in the vault as #\(id)"
            case nil: message = "nothing added"
            }
            if let first = warnings.value?.first { message = (message ?? "") + "; " + first.replacingLiterally("pwnvault: ", with: "") }
            loadAccounts()
            if case let .added(a)? = outcomes.first, let i = shownAccounts.firstIndex(where: { accountRows[$0].id == a.id }) {
                accountCursor.selected = i
            }
        } catch let error as UserFacingError {
            message = "not added: " + error.message
        } catch {
            message = "not added: the vault could not be saved"
        }
    }

    // MARK: import

    func pathKey(_ key: UIKey) {
        guard var path = typingPath else { return }
        switch key {
        case let .char(c): path.append(c)
        case .backspace: if !path.isEmpty { path.removeLast() }
        case .escape: typingPath = nil; return
        case .enter: typingPath = nil; readContacts(path); return
        default: break
        }
        typingPath = path
    }

    /// Reads the vCard and opens the pick list: addresses as a picker shows them (masked; the kind only
    /// in share mode), their contact's label, and whether the vault has them already.
    func readContacts(_ rawPath: String) {
        let path = (rawPath.hasPrefix("~/") ? FileManager.default.homeDirectoryForCurrentUser.path + rawPath.dropFirst(1) : rawPath).trimmingWhitespace()
        let name = Sanitizer.singleLine(path)
        var plan: ContactImportPlan
        let checker = try? ICUSpoofChecker.load()
        do {
            plan = try ContactImportPlan(contacts: try VCardParser.parse(try ImportCommand.read(path, name: name)),
                                         includePhones: false, phones: context.phoneNumbering, maxLabelLength: AccountLabel.maxLength,
                                         checker: checker)
        } catch let e as VCardError {
            message = "\(name): \(e.message); nothing was added"
            return
        } catch let e as UserFacingError {
            message = e.message
            return
        } catch {
            message = "cannot read \(name)"
            return
        }
        // A name that spells one of the vault's accounts (or part of one) labels nothing, as in `import`.
        _ = plan.screenLabels(against: session.payload.accounts, checker: checker)
        let inVault = Dictionary(session.payload.accounts.map { ($0.dedupKey, $0.id) }) { first, _ in first }
        pickItems = plan.contacts.flatMap { contact in
            contact.addresses.map { a in
                PickItem(account: a.account, label: contact.label, shown: disclosure.pickerAccount(a.account), inVault: inVault[a.account.dedupKey])
            }
        }
        guard !pickItems.isEmpty else { message = "\(name): no e-mail address in it; nothing was added"; return }
        picked = Set(pickItems.indices.filter { pickItems[$0].inVault == nil })
        pickCursor = ListCursor()
        pickSource = name.lastPathComponent
        push(.pick)
    }

    func pickLines(columns: Int) -> [String] {
        var out = ["\u{1B}[1m" + row(["", "ADDRESS", "LABEL", ""], [3, 30, max(6, columns - 60), 17], columns) + "\u{1B}[0m"]
        pickCursor.keepVisible(count: pickItems.count, height: listHeight)
        let end = min(pickItems.count, pickCursor.top + listHeight)
        for i in pickCursor.top..<end {
            let item = pickItems[i]
            let label = disclosure.pickerLabel(item.label)
            let text = row([picked.contains(i) ? "[x]" : "[ ]", item.shown, label, item.inVault.map { "already #\($0)" } ?? ""],
                           [3, 30, max(6, columns - 60), 17], columns)
            out.append(i == pickCursor.selected ? "\u{1B}[7m" + text + "\u{1B}[0m" : text)
        }
        return out
    }

    func pickKey(_ key: UIKey) {
        // Space picks here (elsewhere it pages down).
        if key != .char(" "), moved(key, &pickCursor, count: pickItems.count) { return }
        switch key {
        case .char(" "), .char("x"):
            let i = pickCursor.selected
            if picked.contains(i) { picked.remove(i) } else { picked.insert(i) }
        case .char("*"):
            picked = picked.count == pickItems.count ? [] : Set(pickItems.indices)
        case .enter:
            let chosen = pickItems.indices.filter { picked.contains($0) }.map { (pickItems[$0].account, pickItems[$0].label) }
            stack.removeLast()
            guard !chosen.isEmpty else { message = "nothing was picked; nothing was added"; return }
            let quiet = Console(terminal: context.console.terminal, policy: context.console.policy, colorsAllowed: false,
                                writeOut: { _ in }, writeErr: { _ in })
            do {
                let outcomes = try AccountAdder.add(chosen, to: session, now: context.now(), phones: context.phoneNumbering, console: quiet)
                let added = outcomes.filter { if case .added = $0 { return true } else { return false } }.count
                message = "imported \(added) account\(added == 1 ? "" : "s")" + (added < chosen.count ? "; \(chosen.count - added) already in the vault" : "")
            } catch let error as UserFacingError {
                message = "nothing imported: " + error.message
            } catch {
                message = "nothing imported: the vault could not be saved"
            }
            loadAccounts()
        default: break
        }
    }

    // MARK: the idle lock

    var lockedLine: String? {
        guard revealedSomething else { return nil }
        return (unlockFailed ? "wrong passphrase. " : "") + "locked: something was revealed, so type the passphrase and press Enter (not shown)."
    }

    func unlock(_ key: UIKey) -> Bool {
        guard revealedSomething else { return true }
        if asking == nil { asking = (.unlock, SecretField()) }
        guard let asking else { return false }
        switch key {
        case let .char(c): asking.field.append(c)
        case .backspace: asking.field.removeLast()
        case .escape: _ = asking.field.take()
        case .enter:
            self.asking = nil
            let ok = opened(with: asking.field.take()) != nil
            unlockFailed = !ok
            return ok
        default: break
        }
        return false
    }

    func startCheck(_ ids: [Int], what: String) {
        guard work == nil else { return }
        let accounts = session.payload.accounts.filter { ids.contains($0.id) }
        work = UIWork.check(context: context, accounts: accounts, what: what)
    }

    func startCheckDue() {
        guard work == nil else { return }
        let now = context.now()
        let due = session.payload.accounts.filter { CheckCommand.isDue($0, now: now) }
        if due.isEmpty { message = "every account was checked within the last day"; return }
        work = UIWork.check(context: context, accounts: due, what: "\(due.count) due account\(due.count == 1 ? "" : "s")")
    }

}
