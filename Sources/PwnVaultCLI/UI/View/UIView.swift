import PwnVaultCore

/// What the screen shows for a state, at a size: the title bar, the page, a notice where there is
/// one, and the status line. Pure: drawing never changes the state.
enum UIView {
    static func rows(_ state: UIState, columns: Int, rows: Int) -> [UIRow] {
        let listHeight = max(1, rows - 3), pageHeight = max(1, rows - 2)
        var out: [UIRow] = []
        switch state.page {
        case .accounts:
            out.append(bar(state.accountsPage.title(total: state.accounts.count), columns))
            out += state.accountsPage.view(width: columns, height: listHeight, colors: state.colors, revealed: state.revealed)
        case .catalog:
            out.append(bar(state.catalogPage.title, columns))
            out += state.catalogPage.view(width: columns, height: listHeight)
        case let .result(page):
            out.append(bar("pwnvault · Result", columns))
            var text = ResultPage.rows(state, id: page.id, width: columns - 1)
            if let opens = page.opens(state) { text.append(UIRow("")); text.append(UIRow(opens, .bold)) }
            out += page.text.visible(text, height: pageHeight)
        case let .detail(page):
            out.append(bar("pwnvault · Breach", columns))
            out += page.text.visible(DetailPage.rows(state, name: page.name, width: columns - 1), height: pageHeight)
        case .pick:
            if let pick = state.pickPage {
                out.append(bar(pick.title, columns))
                out += pick.view(width: columns, height: listHeight, disclosure: state.disclosure)
            }
        case let .help(page):
            out.append(bar("pwnvault · Keys", columns))
            out += page.text.visible(HelpPage.lines.map { UIRow($0) }, height: pageHeight)
        }
        if let revealed = state.revealed {
            out = [bar("pwnvault · Revealed #\(revealed.id)", columns)] + revealed.pager.view(columns: columns, rows: rows - 2).map { UIRow($0) }
        }
        while out.count < rows - 1 { out.append(UIRow()) }
        out = Array(out.prefix(rows - 1))
        if let notice = notice(state, columns: columns, rows: rows) { out = Array(out.prefix(rows - 1 - notice.count)) + notice }
        out.append(statusLine(state, columns))
        return out
    }

    static func bar(_ text: String, _ columns: Int) -> UIRow {
        UIRow(TerminalCells.pad(TerminalCells.truncate(text, to: columns), to: columns), .bar)
    }

    /// Above the status line (wrapped, at most a third of the rows): `notice` until the next key, or
    /// reveal's warning while the passphrase for `v` is typed and while an account is revealed, where
    /// focus loss cannot hide it.
    static func notice(_ state: UIState, columns: Int, rows: Int) -> [UIRow]? {
        var revealing = state.revealed != nil
        if let asking = state.asking, case .reveal = asking.purpose { revealing = true }
        guard let text = state.notice ?? (revealing ? state.focusWarning : nil) else { return nil }
        return TerminalCells.wrap("pwnvault: " + text, to: columns).prefix(max(1, rows / 3)).map { UIRow($0, .bold) }
    }

    static func statusLine(_ state: UIState, _ columns: Int) -> UIRow {
        let right = state.shareReason != nil ? " SHARE MODE " : ""
        let room = max(0, columns - TerminalCells.width(right))
        var left: String
        if let asking = state.asking, case let .reveal(id) = asking.purpose {
            left = "passphrase to reveal #\(id) (not shown as you type; Enter, Esc cancels): "
        } else if let asking = state.asking, case .add = asking.purpose {
            left = "new account: e-mail, phone or username (not shown as you type; Enter adds, Esc cancels): "
        } else if let revealed = state.revealed {
            left = "#\(revealed.id) revealed: ↑↓ PgUp PgDn Home End scroll, / find; any other key hides it (at most \(Int(state.revealSeconds)) s)"
        } else if let path = state.typingPath {
            left = "import a vCard: path " + path + "▏  (Enter reads it, Esc cancels)"
        } else if state.accountsPage.typing { left = "filter: " + state.accountsPage.filter + "▏  (Enter keeps it, Esc clears)" }
        else if state.catalogPage.typing { left = "search: " + state.catalogPage.query + "▏  (Enter keeps it, Esc clears)" }
        else if let check = state.check { left = check }
        else if let message = state.message { left = message }
        else { left = Footer.line(keys(state.page), width: room) }
        let text = UIRow(TerminalCells.pad(TerminalCells.truncate(left, to: room), to: room), .bar)
        return right.isEmpty ? text : UIRow(text.spans + [UISpan(right, .shareMarker)])
    }

    /// The keys the status line offers on `page`, with how much each matters (0: always shown).
    static func keys(_ page: UIState.Page) -> [Footer.Key] {
        switch page {
        case .accounts:
            return [.init("↑↓/jk", "move", 6), .init("Enter", "result", 2), .init("/", "filter", 3), .init("c", "catalog", 4),
                    .init("r", "check", 3), .init("R", "check due", 5), .init("v", "reveal", 4), .init("?", "keys", 0), .init("q", "quit", 0)]
        case .catalog:
            return [.init("↑↓/jk", "move", 5), .init("Enter", "detail", 2), .init("/", "search", 2), .init("s", "sort", 3),
                    .init("Esc", "back", 1), .init("?", "keys", 0), .init("q", "quit", 0)]
        case .result:
            return [.init("↑↓", "scroll", 5), .init("Enter", "breach", 2), .init("Tab", "next breach", 4), .init("a", "acknowledge", 2),
                    .init("r", "check", 3), .init("Esc", "back", 1), .init("?", "keys", 0), .init("q", "quit", 0)]
        case .detail:
            return [.init("↑↓", "scroll", 2), .init("Esc", "back", 1), .init("?", "keys", 0), .init("q", "quit", 0)]
        case .help:
            return [.init("↑↓", "scroll", 2), .init("Esc", "back", 1), .init("q", "quit", 0)]
        case .pick:
            return [.init("↑↓/jk", "move", 5), .init("Space", "pick", 1), .init("*", "all/none", 3), .init("Enter", "import the picked", 1),
                    .init("Esc", "cancel", 2), .init("?", "keys", 0), .init("q", "quit", 0)]
        }
    }
}
