import PwnVaultCore

/// Everything the catalog says about one breach (`breach NAME`). Lines wider than the screen (a link)
/// are wrapped between characters, never cut, so a link can be copied whole.
struct DetailPage: Equatable {
    let name: String
    var text = ScrolledText()

    static func rows(_ state: UIState, name: String, width: Int) -> [UIRow] {
        guard let b = state.catalog?.breach(named: name) else { return [UIRow(msg("no such breach in the catalog"))] }
        return BreachRendering(state.console(width: width)).details(b).flatMap { line -> [UIRow] in
            let row = UIRow.rendered(line)
            guard TerminalCells.width(row.text) > width else { return [row] }
            let style = row.spans.count == 1 ? row.spans[0].style : .plain
            return TextPager.wrap(row.text, to: width).map { UIRow($0, style) }
        }
    }
}
