import PwnVaultCore

/// Import's pick list: the vCard's addresses as a picker shows them (masked; the kind only in share
/// mode), their contact's label, and whether the vault has them already.
struct PickPage {
    struct Item { let account: ParsedAccount; let label: AccountLabel?; let shown: String; let inVault: Int? }

    static var columns: [ColumnLayout.Column] { [
        ColumnLayout.Column(title: "", priority: 0, minimum: 3),
        ColumnLayout.Column(title: msg("ADDRESS"), priority: 1, minimum: 12),
        ColumnLayout.Column(title: msg("LABEL"), priority: 3, minimum: 6),
        ColumnLayout.Column(title: "", priority: 2, minimum: 10),
    ] }

    let source: String
    let items: [Item]
    var picked: Set<Int>
    var cursor = ListCursor()

    init(source: String, items: [Item]) {
        self.source = source
        self.items = items
        picked = Set(items.indices.filter { items[$0].inVault == nil })
    }

    /// What Enter imports.
    var chosen: [(ParsedAccount, AccountLabel?)] {
        items.indices.filter { picked.contains($0) }.map { (items[$0].account, items[$0].label) }
    }

    var title: String { msg("pwnvault · Import from {1}: {2} of {3} picked", source, picked.count, items.count) }

    func view(width: Int, height: Int, disclosure: Disclosure) -> [UIRow] {
        let cells = items.indices.map { i in
            [picked.contains(i) ? "[x]" : "[ ]", items[i].shown, disclosure.pickerLabel(items[i].label), items[i].inVault.map { msg("already #{1}", $0) } ?? ""]
        }
        let columns = PickPage.columns
        let widths = ColumnLayout.widths(columns, needs: columns.indices.map { c in
            cells.map { TerminalCells.width($0[c]) }.max() ?? 0
        }, width: width)
        var out = [UIRow(TerminalCells.pad(ColumnLayout.row(columns.map(\.title), widths), to: width), .bold)]
        let top = cursor.visibleTop(count: items.count, height: height)
        for i in top..<min(items.count, top + height) {
            out.append(UIRow(TerminalCells.pad(ColumnLayout.row(cells[i], widths), to: width), i == cursor.selected ? .selected : .plain))
        }
        return out
    }
}
