import PwnVaultCore

/// The breach catalog: searched as you type (title, name, domain), sorted by date, size or name.
struct CatalogPage: Equatable {
    enum Sort: String, CaseIterable { case date, size, name }

    struct Row: Equatable {
        let breach: Breach
        let cells: [String]   // date, title, domain, accounts
        let haystack: [UInt8]
    }

    static var columns: [ColumnLayout.Column] { [
        ColumnLayout.Column(title: msg("DATE"), priority: 1, minimum: 10),
        ColumnLayout.Column(title: msg("TITLE"), priority: 0, minimum: 12),
        ColumnLayout.Column(title: msg("DOMAIN"), priority: 3, minimum: 8),
        ColumnLayout.Column(title: msg("ACCOUNTS"), priority: 2, minimum: 11, rightAligned: true),
    ] }

    var rows: [Row] = []
    var shown: [Int] = []
    var query = ""
    var typing = false
    var sort = Sort.date
    var cursor = ListCursor()

    init(catalog: BreachCatalog?, disclosure: Disclosure, colors: Bool) {
        let console = Console(terminal: TerminalCapabilities(stdoutIsTerminal: true, stderrIsTerminal: true, stdinIsTerminal: true,
                                                             colorsOnStdout: false, colorsOnStderr: false, columns: nil),
                              policy: disclosure.policy, colorsAllowed: false, writeOut: { _ in }, writeErr: { _ in })
        rows = (catalog?.breaches ?? []).map { b in
            let title = BreachRendering(console).title(b)
            return Row(breach: b, cells: [b.breachDate.map { "\($0)" } ?? "-", title,
                                          b.domain.isEmpty ? "-" : Sanitizer.singleLine(b.domain), thousands(b.pwnCount)],
                       haystack: Haystack([Sanitizer.singleLine(b.title), Sanitizer.singleLine(b.name), Sanitizer.singleLine(b.domain)]).bytes)
        }
        sortRows(height: 1)
    }

    var selected: Breach? { shown.isEmpty ? nil : rows[shown[min(cursor.selected, shown.count - 1)]].breach }

    mutating func applyQuery(narrowing: Bool, height: Int) {
        let needle = Haystack.needle(query)
        let from = narrowing ? shown : Array(rows.indices)
        shown = from.filter { Haystack(bytes: rows[$0].haystack).contains(needle) }
        cursor.keepVisible(count: shown.count, height: height)
    }

    mutating func nextSort(height: Int) {
        sort = Sort.allCases[(Sort.allCases.firstIndex(of: sort)! + 1) % Sort.allCases.count]
        sortRows(height: height)
    }

    mutating func sortRows(height: Int) {
        switch sort {
        case .date:
            let none = BreachDay(year: 1, month: 1, day: 1)!
            rows.sort { ($0.breach.breachDate ?? none, $0.breach.name) > ($1.breach.breachDate ?? none, $1.breach.name) }
        case .size:
            rows.sort { $0.breach.pwnCount != $1.breach.pwnCount ? $0.breach.pwnCount > $1.breach.pwnCount : $0.breach.name < $1.breach.name }
        case .name:
            rows.sort { $0.breach.title.lowercased() < $1.breach.title.lowercased() }
        }
        applyQuery(narrowing: false, height: height)
        cursor = ListCursor()
    }

    var title: String {
        let by: String
        switch sort {
        case .date: by = msg("date")
        case .size: by = msg("size")
        case .name: by = msg("name")
        }
        return query.isEmpty ? msg("pwnvault · Catalog ({1}) · sorted by {2}", shown.count, by)
            : msg("pwnvault · Catalog ({1} of {2}) · sorted by {3}", shown.count, rows.count, by)
    }

    func view(width: Int, height: Int) -> [UIRow] {
        let columns = CatalogPage.columns
        // The date shortens first (2019-07, then 2019), then the title shares its cells with the
        // domain down to 28: neither is cut to a stub while the other stays whole.
        var form = 0, widths: [Int] = [], needs: [Int] = []
        func cell(_ row: [String], _ c: Int) -> String {
            c == 0 && row[0].count == 10 && form > 0 ? String(row[0].prefix(form == 1 ? 7 : 4)) : row[c]
        }
        while true {
            needs = columns.indices.map { c in shown.map { TerminalCells.width(cell(rows[$0].cells, c)) }.max() ?? 0 }
            widths = ColumnLayout.widths(columns, needs: needs, width: width)
            let fits = columns.indices.allSatisfy { widths[$0] >= max(needs[$0], TerminalCells.width(columns[$0].title)) }
            if fits || form >= 2 { break }
            form += 1
        }
        if widths[2] > 0, widths[2] < needs[2], widths[1] > 28 {
            let moved = min(widths[1] - 28, needs[2] - widths[2])
            widths[1] -= moved; widths[2] += moved
        }
        let header = ColumnLayout.row(columns.map(\.title), widths, right: [3])
        var out = [UIRow(TerminalCells.pad(header, to: width), .bold)]
        if rows.isEmpty { return out + [UIRow(msg("the breach catalog is not cached yet: press q, then 'pwnvault breaches'"))] }
        if shown.isEmpty { return out + [UIRow(msg("no breach matches the search"))] }
        let top = cursor.visibleTop(count: shown.count, height: height)
        for i in top..<min(shown.count, top + height) {
            let cells = rows[shown[i]].cells
            let text = TerminalCells.pad(ColumnLayout.row(cells.indices.map { cell(cells, $0) }, widths, right: [3]), to: width)
            out.append(UIRow(text, i == cursor.selected ? .selected : .plain))
        }
        return out
    }
}
