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
        var cells: [[Int]] = []   // each cell measured once
        cells.reserveCapacity(rows.count + 1)
        cells.append(header.prefix(columns).map(TerminalCells.width))
        for row in rows { cells.append(row.prefix(columns).map(TerminalCells.width)) }
        let widths = columnWidths(fitting: width, cells: cells)
        // Each line is put together as UTF-8 bytes, then made a String once.
        var bytes: [UInt8] = []
        func line(_ row: [String], _ measured: [Int]) -> String {
            bytes.removeAll(keepingCapacity: true)
            for (i, cell) in row.prefix(columns).enumerated() {
                if i > 0 { bytes.append(0x20); bytes.append(0x20) }
                let cut = measured[i] > widths[i]
                let fitted = cut ? TerminalCells.truncate(cell, to: widths[i]) : cell
                bytes.append(contentsOf: fitted.utf8)
                if i < columns - 1 {
                    let used = cut ? TerminalCells.width(fitted) : measured[i]
                    bytes.append(contentsOf: repeatElement(0x20, count: max(0, widths[i] - used)))
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            return bytes.last == 0x20 ? text.trailingSpacesTrimmed : text
        }
        var lines = [style(line(header, cells[0]))]
        lines.reserveCapacity(rows.count + 1)
        for (r, row) in rows.enumerated() { lines.append(line(row, cells[r + 1])) }
        return lines
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
