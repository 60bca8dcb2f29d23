import PwnVaultCore

/// Everything the catalog says about one breach (`breach NAME`). Lines wider than the screen (a link)
/// are wrapped between characters, never cut, so a link can be copied whole.
struct DetailPage: Equatable {
    let name: String
    var text = ScrolledText()
    /// The account whose result page opened it: its finding's "no longer listed" is said first.
    var account: Int? = nil

    static func rows(_ state: UIState, name: String, width: Int, account: Int? = nil) -> [UIRow] {
        guard let b = state.catalog?.breach(named: name) else { return [UIRow(msg("no such breach in the catalog"))] }
        var lines = BreachRendering(state.console(width: width)).details(b)
        if let a = state.accounts.first(where: { $0.id == account }),
           let since = a.unlistedSince(ofBreach: b.name) {
            let mark = b.isRetired ? msg("(retired by HIBP, no longer listed since {1})", BreachRendering.day(since))
                                   : msg("(no longer listed by HIBP since {1})", BreachRendering.day(since))
            lines = ["#\(a.id) " + mark, ""] + lines
        }
        return lines.flatMap { line -> [UIRow] in
            let row = UIRow.rendered(line)
            guard TerminalCells.width(row.text) > width else { return [row] }
            let style = row.spans.count == 1 ? row.spans[0].style : .plain
            return TextPager.wrap(row.text, to: width).map { UIRow($0, style) }
        }
    }
}
