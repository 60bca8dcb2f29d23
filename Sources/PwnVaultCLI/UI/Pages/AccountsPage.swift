import PwnVaultCore

/// The accounts list: every account as the disclosure gate shows it, filtered as you type (by id,
/// account as shown, label and state).
struct AccountsPage: Equatable {
    struct Row: Equatable {
        let id: Int
        let cells: [String]   // #id, account, label, status, new, last check
        let haystack: [UInt8]
        let breached: Bool
    }

    static var columns: [ColumnLayout.Column] { [
        ColumnLayout.Column(title: msg("ID"), priority: 0, minimum: 3),
        ColumnLayout.Column(title: msg("ACCOUNT"), priority: 1, minimum: 12),
        ColumnLayout.Column(title: msg("LABEL"), priority: 3, minimum: 6),
        ColumnLayout.Column(title: msg("STATUS"), priority: 2, minimum: 10),
        ColumnLayout.Column(title: msg("NEW"), priority: 4, minimum: 5),
        ColumnLayout.Column(title: msg("LAST CHECK"), priority: 5, minimum: 10),
    ] }

    var rows: [Row] = []
    /// Indices into `rows` that the filter lets through.
    var shown: [Int] = []
    var filter = ""
    var typing = false
    var cursor = ListCursor()

    var selectedID: Int? { shown.isEmpty ? nil : rows[shown[min(cursor.selected, shown.count - 1)]].id }

    /// The ids shown (the filter applied), in order.
    var shownIDs: [Int] { shown.map { rows[$0].id } }

    mutating func load(_ accounts: [Account], disclosure: Disclosure, height: Int) {
        let selected = selectedID
        rows = accounts.map { a in
            let masked = disclosure.account(a)
            let label = disclosure.label(a) ?? ""
            let fresh = a.newFindings.count
            let state = StateText.of(a)
            let cells = ["#\(a.id)", masked, label, state, fresh > 0 ? msg("{1} NEW", fresh) : "", a.result.checkedAt.map(StateText.time) ?? "-"]
            // Filtering sees only what the screen shows (an unmasked address never answers a search):
            // the id, the account as shown, the label and the state ("breached", "to acknowledge").
            return Row(id: a.id, cells: cells, haystack: Haystack(["#\(a.id)", masked, label, state]).bytes,
                       breached: a.result.status == .breached)
        }
        applyFilter(narrowing: false, height: height)
        if let selected, let i = shown.firstIndex(where: { rows[$0].id == selected }) {
            cursor.selected = i
            cursor.keepVisible(count: shown.count, height: height)
        }
    }

    mutating func applyFilter(narrowing: Bool, height: Int) {
        let needle = Haystack.needle(filter)
        let from = narrowing ? shown : Array(rows.indices)
        shown = from.filter { Haystack(bytes: rows[$0].haystack).contains(needle) }
        cursor.keepVisible(count: shown.count, height: height)
    }

    func title(total: Int) -> String {
        filter.isEmpty ? msg("pwnvault · Accounts ({1})", shown.count) : msg("pwnvault · Accounts ({1} of {2})", shown.count, rows.count)
    }

    /// The header and the rows at `width`, `height` rows of accounts at most; `revealed` shows one
    /// account unmasked in its row.
    func view(width: Int, height: Int, colors: Bool, revealed: UIState.Revealed?) -> [UIRow] {
        let columns = AccountsPage.columns
        let widths = ColumnLayout.widths(columns, needs: columns.indices.map { c in
            shown.map { TerminalCells.width(rows[$0].cells[c]) }.max() ?? 0
        }, width: width)
        var out = [UIRow(TerminalCells.pad(ColumnLayout.row(columns.map(\.title), widths), to: width), .bold)]
        if shown.isEmpty {
            out.append(UIRow(rows.isEmpty ? msg("the vault holds no account: press q, then 'pwnvault add'") : msg("no account matches the filter")))
            return out
        }
        let top = cursor.visibleTop(count: shown.count, height: height)
        for i in top..<min(shown.count, top + height) {
            let r = rows[shown[i]]
            var cells = r.cells
            if let revealed, revealed.id == r.id { cells[1] = revealed.text }
            let text = TerminalCells.pad(ColumnLayout.row(cells, widths), to: width)
            out.append(UIRow(text, i == cursor.selected ? .selected : r.breached && colors ? .breached : .plain))
        }
        return out
    }
}
