import FoundationEssentials
import PwnVaultCore

/// The accounts list: every account as the disclosure gate shows it, filtered as you type (by id,
/// account as shown, label and state).
struct AccountsPage: Equatable {
    struct Row: Equatable {
        let id: Int
        let cells: [String]   // #id, account, label, status, last check
        /// The last check's shorter forms (`today 14:33`, `2 h ago`), taken when the full one does not fit.
        var dates: [String] = []
        let haystack: [UInt8]
        let breached: Bool
    }

    static var columns: [ColumnLayout.Column] { [
        ColumnLayout.Column(title: msg("ID"), priority: 0, minimum: 3),
        ColumnLayout.Column(title: msg("ACCOUNT"), priority: 2, minimum: 12),
        ColumnLayout.Column(title: msg("LABEL"), priority: 4, minimum: 6),
        ColumnLayout.Column(title: msg("STATUS"), priority: 1, minimum: 10),
        ColumnLayout.Column(title: msg("LAST CHECK"), priority: 3, minimum: 8),
    ] }
    /// The status says what is new (`breached (3, 3 new)`): no column repeats it.
    static let lastCheck = 4

    var rows: [Row] = []
    /// Indices into `rows` that the filter lets through.
    var shown: [Int] = []
    var filter = ""
    var typing = false
    var cursor = ListCursor()

    var selectedID: Int? { shown.isEmpty ? nil : rows[shown[min(cursor.selected, shown.count - 1)]].id }

    /// The ids shown (the filter applied), in order.
    var shownIDs: [Int] { shown.map { rows[$0].id } }

    mutating func load(_ accounts: [Account], disclosure: Disclosure, height: Int, now: Date = Date()) {
        let selected = selectedID
        rows = accounts.map { a in
            let masked = disclosure.account(a)
            let label = disclosure.label(a) ?? ""
            let state = StateText.of(a)
            let dates = a.result.checkedAt.map { Array(StateText.timeForms($0, now: now).prefix(2)) + [StateText.ago($0, now: now)] } ?? ["-"]
            let cells = ["#\(a.id)", masked, label, state, dates[0]]
            // Filtering sees only what the screen shows (an unmasked address never answers a search):
            // the id, the account as shown, the label and the state ("breached", "to acknowledge").
            return Row(id: a.id, cells: cells, dates: Array(dates.dropFirst()), haystack: Haystack(["#\(a.id)", masked, label, state]).bytes,
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
        var columns = AccountsPage.columns
        // The last check takes its shorter forms (today 14:33, then 2 h ago) before the layout cuts
        // or leaves out anything: the longest form whose column then fits whole.
        let visible = shown.isEmpty ? [] : Array(shown[cursor.visibleTop(count: shown.count, height: height)..<min(shown.count, cursor.visibleTop(count: shown.count, height: height) + height)])
        var form = 0, widths: [Int] = []
        func cell(_ r: Row, _ c: Int) -> String {
            c == Self.lastCheck && form > 0 && !r.dates.isEmpty ? r.dates[min(form, r.dates.count) - 1] : r.cells[c]
        }
        while true {
            // The shorter forms under list's shorter title (CHECKED), which they do not outgrow.
            let needs = columns.indices.map { c in visible.map { TerminalCells.width(cell(rows[$0], c)) }.max() ?? 0 }
            if form > 0 {
                // In its shortest form the date is whole or left out, never cut.
                columns[Self.lastCheck] = ColumnLayout.Column(title: msg("CHECKED"), priority: 3, minimum: form == 2 ? max(7, needs[Self.lastCheck]) : 7)
            }
            // The status is what the reader came for: whole up to 32 cells before the others widen
            // (a narrow window leaves out the label, then the date, before it cuts a status).
            columns[3] = ColumnLayout.Column(title: msg("STATUS"), priority: 1, minimum: max(10, min(32, needs[3])))
            widths = ColumnLayout.widths(columns, needs: needs, width: width)
            let fits = columns.indices.allSatisfy { widths[$0] >= max(needs[$0], TerminalCells.width(columns[$0].title)) }
            if fits || form >= 2 { break }
            form += 1
        }
        var out = [UIRow(TerminalCells.pad(ColumnLayout.row(columns.map(\.title), widths), to: width), .bold)]
        if shown.isEmpty {
            out.append(UIRow(rows.isEmpty ? msg("the vault holds no account: press q, then 'pwnvault add'") : msg("no account matches the filter")))
            return out
        }
        let top = cursor.visibleTop(count: shown.count, height: height)
        for i in top..<min(shown.count, top + height) {
            let r = rows[shown[i]]
            var cells = r.cells
            cells[Self.lastCheck] = cell(r, Self.lastCheck)
            if let revealed, revealed.id == r.id { cells[1] = revealed.text }
            let text = TerminalCells.pad(ColumnLayout.row(cells, widths), to: width)
            out.append(UIRow(text, i == cursor.selected ? .selected : r.breached && colors ? .breached : .plain))
        }
        return out
    }
}
