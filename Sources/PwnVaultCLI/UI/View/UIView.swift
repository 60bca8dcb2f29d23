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
            out.append(bar(msg("pwnvault · Result"), columns))
            var text = ResultPage.rows(state, id: page.id, width: columns - 1)
            if let opens = page.opens(state) { text.append(UIRow("")); text.append(UIRow(opens, .bold)) }
            out += page.text.visible(text, height: pageHeight)
        case let .detail(page):
            out.append(bar(msg("pwnvault · Breach"), columns))
            out += page.text.visible(DetailPage.rows(state, name: page.name, width: columns - 1, account: page.account), height: pageHeight)
        case .pick:
            if let pick = state.pickPage {
                out.append(bar(pick.title, columns))
                out += pick.view(width: columns, height: listHeight, disclosure: state.disclosure)
            }
        case let .help(page):
            out.append(bar(msg("pwnvault · Keys"), columns))
            out += page.text.visible(HelpPage.lines(width: columns - 1).map { UIRow($0) }, height: pageHeight)
        }
        if let revealed = state.revealed {
            out = [bar(msg("pwnvault · Revealed #{1}", revealed.id), columns)] + revealed.pager.view(columns: columns, rows: rows - 2).map { UIRow($0) }
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
        let right = state.shareReason != nil ? msg(" SHARE MODE ") : ""
        let room = max(0, columns - TerminalCells.width(right))
        var left: String
        if let asking = state.asking, case let .reveal(id) = asking.purpose {
            left = msg("passphrase to reveal #{1} (not shown as you type; Enter, Esc cancels): ", id)
        } else if let asking = state.asking, case .add = asking.purpose {
            left = msg("new account: e-mail, phone or username (not shown as you type; Enter adds, Esc cancels): ")
        } else if let revealed = state.revealed {
            left = msg("#{1} revealed: ↑↓ PgUp PgDn Home End scroll, / find; any other key hides it (at most {2} s)", revealed.id, Int(state.revealSeconds))
        } else if let path = state.typingPath {
            left = msg("import a vCard: path {1}▏  (Enter reads it, Esc cancels)", path)
        } else if state.accountsPage.typing { left = msg("filter: {1}▏  (Enter keeps it, Esc clears)", state.accountsPage.filter) }
        else if state.catalogPage.typing { left = msg("search: {1}▏  (Enter keeps it, Esc clears)", state.catalogPage.query) }
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
            return [.init("↑↓/jk", msg("move"), 6), .init("Enter", msg("result"), 2), .init("/", msg("filter"), 3), .init("c", msg("catalog"), 4),
                    .init("r", msg("check"), 3), .init("R", msg("check due"), 5), .init("v", msg("reveal"), 4), .init("?", msg("keys"), 0),
                    .init("q", msg("quit"), 0)]
        case .catalog:
            return [.init("↑↓/jk", msg("move"), 5), .init("Enter", msg("detail"), 2), .init("/", msg("search"), 2), .init("s", msg("sort"), 3),
                    .init("Esc", msg("back"), 1), .init("?", msg("keys"), 0), .init("q", msg("quit"), 0)]
        case .result:
            return [.init("↑↓", msg("scroll"), 5), .init("Enter", msg("breach"), 2), .init("Tab", msg("next breach"), 4),
                    .init("a", msg("acknowledge"), 2), .init("r", msg("check"), 3), .init("Esc", msg("back"), 1), .init("?", msg("keys"), 0),
                    .init("q", msg("quit"), 0)]
        case .detail:
            return [.init("↑↓", msg("scroll"), 2), .init("Esc", msg("back"), 1), .init("?", msg("keys"), 0), .init("q", msg("quit"), 0)]
        case .help:
            return [.init("↑↓", msg("scroll"), 2), .init("Esc", msg("back"), 1), .init("q", msg("quit"), 0)]
        case .pick:
            return [.init("↑↓/jk", msg("move"), 5), .init("Space", msg("pick"), 1), .init("*", msg("all/none"), 3),
                    .init("Enter", msg("import the picked"), 1), .init("Esc", msg("cancel"), 2), .init("?", msg("keys"), 0), .init("q", msg("quit"), 0)]
        }
    }
}
