import PwnVaultCore

/// A plain text table: columns padded to the widest cell (in terminal cells, so CJK and emoji align),
/// two spaces apart, the last column unpadded. Given a width, the widest columns shrink until the
/// table fits, and cells cut short end in `…`; columns in `keep` (dates, counts) are never cut.
struct Table {
    var header: [String]
    var rows: [[String]] = []
    var keep: Set<Int> = []
    /// Columns that shrink sooner than the others (a breach's internal name sooner than its title).
    var shrinkFirst: Set<Int> = []

    init(header: [String], rows: [[String]] = [], keep: Set<Int> = [], shrinkFirst: Set<Int> = []) {
        self.header = header; self.rows = rows; self.keep = keep; self.shrinkFirst = shrinkFirst
    }

    func render(width: Int? = nil, style: (String) -> String = { $0 }) -> [String] {
        let columns = header.count
        let all = [header] + rows
        let cells = all.map { $0.prefix(columns).map(TerminalCells.width) }   // each cell measured once
        let widths = columnWidths(fitting: width, cells: cells)
        func line(_ r: Int) -> String {
            var parts: [String] = []
            for (i, cell) in all[r].prefix(columns).enumerated() {
                let fitted = cells[r][i] > widths[i] ? TerminalCells.truncate(cell, to: widths[i]) : cell
                let used = cells[r][i] > widths[i] ? TerminalCells.width(fitted) : cells[r][i]
                parts.append(i == columns - 1 ? fitted : fitted + String(repeating: " ", count: max(0, widths[i] - used)))
            }
            return parts.joined(separator: "  ").trailingSpacesTrimmed
        }
        return [style(line(0))] + (1..<all.count).map(line)
    }

    /// Each column's width: its widest cell; with `width`, the widest shrinkable column loses a cell
    /// at a time (those in `shrinkFirst` sooner) until the table fits or every column is down to its
    /// header (at least 3 cells).
    func columnWidths(fitting width: Int?, cells: [[Int]]) -> [Int] {
        let columns = header.count
        var widths = [Int](repeating: 0, count: columns)
        for row in cells { for (i, w) in row.enumerated() { widths[i] = max(widths[i], w) } }
        guard let width else { return widths }
        let floors = (0..<columns).map { keep.contains($0) ? widths[$0] : min(widths[$0], max(3, TerminalCells.width(header[$0]))) }
        var total = widths.reduce(0, +) + 2 * (columns - 1)
        while total > width {
            // Widest first; a `shrinkFirst` column counts double, so it ends about half as wide as the others.
            func weight(_ i: Int) -> Int { widths[i] * (shrinkFirst.contains(i) ? 2 : 1) }
            guard let i = (0..<columns).filter({ widths[$0] > floors[$0] }).max(by: { weight($0) < weight($1) }) else { break }
            widths[i] -= 1
            total -= 1
        }
        return widths
    }
}
