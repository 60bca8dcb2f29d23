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
    /// The order in which columns give way at a narrow width, before anything else shrinks: each step
    /// narrows its column as far as needed, down to `downTo` cells (labels and statuses before the
    /// names commands take).
    var giveWay: [(column: Int, downTo: Int)] = []

    init(header: [String], rows: [[String]] = [], keep: Set<Int> = [], shrinkFirst: Set<Int> = [],
         giveWay: [(column: Int, downTo: Int)] = []) {
        self.header = header; self.rows = rows; self.keep = keep; self.shrinkFirst = shrinkFirst; self.giveWay = giveWay
    }

    func render(width: Int? = nil, style: (String) -> String = { $0 }) -> [String] {
        let columns = header.count
        // Each cell measured once, into one flat array of `columns` a row (0 for cells a short row
        // lacks): an array per row cost an allocation and a free per row.
        var cells: [Int] = []
        cells.reserveCapacity((rows.count + 1) * columns)
        for row in CollectionOfOne(header) + rows {
            for i in 0..<columns { cells.append(i < row.count ? TerminalCells.width(row[i]) : 0) }
        }
        let widths = columnWidths(fitting: width, cells: cells)
        // Each line is put together as UTF-8 bytes, then made a String once.
        // `bytes` is passed in, not captured: a captured variable was checked for exclusive access
        // at run time on every use.
        var bytes: [UInt8] = []
        func line(_ row: [String], _ measured: ArraySlice<Int>, _ bytes: inout [UInt8]) -> String {
            bytes.removeAll(keepingCapacity: true)
            for (i, cell) in row.prefix(columns).enumerated() {
                if i > 0 { bytes.append(0x20); bytes.append(0x20) }
                let cut = measured[measured.startIndex + i] > widths[i]
                let fitted = cut ? TerminalCells.truncate(cell, to: widths[i]) : cell
                if fitted.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
                    bytes.append(contentsOf: fitted.utf8)
                }
                if i < columns - 1 {
                    let used = cut ? TerminalCells.width(fitted) : measured[measured.startIndex + i]
                    bytes.append(contentsOf: repeatElement(0x20, count: max(0, widths[i] - used)))
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            return bytes.last == 0x20 ? text.trailingSpacesTrimmed : text
        }
        var lines = [style(line(header, cells[0..<columns], &bytes))]
        lines.reserveCapacity(rows.count + 1)
        for (r, row) in rows.enumerated() {
            lines.append(line(row, cells[(r + 1) * columns..<(r + 2) * columns], &bytes))
        }
        return lines
    }

    /// Whether, fitted to `width`, column `column` keeps its widest cell (nothing in it ends in `…`).
    func keepsWhole(_ column: Int, at width: Int?) -> Bool {
        var cells: [Int] = []
        for row in CollectionOfOne(header) + rows {
            for i in 0..<header.count { cells.append(i < row.count ? TerminalCells.width(row[i]) : 0) }
        }
        let natural = stride(from: column, to: cells.count, by: header.count).map { cells[$0] }.max() ?? 0
        return columnWidths(fitting: width, cells: cells)[column] >= natural
    }

    /// The same table without column `column` (what a narrow window leaves out first).
    func removing(column: Int) -> Table {
        func shifted(_ set: Set<Int>) -> Set<Int> { Set(set.compactMap { $0 == column ? nil : $0 > column ? $0 - 1 : $0 }) }
        var table = Table(header: header.enumerated().filter { $0.offset != column }.map(\.element),
                          keep: shifted(keep), shrinkFirst: shifted(shrinkFirst),
                          giveWay: giveWay.compactMap { $0.column == column ? nil : ($0.column > column ? $0.column - 1 : $0.column, $0.downTo) })
        table.rows = rows.map { row in row.enumerated().filter { $0.offset != column }.map(\.element) }
        return table
    }

    /// Each column's width: its widest cell (`cells`: the widths, `header.count` a row); with `width`, the widest shrinkable column loses a cell
    /// at a time (those in `shrinkFirst` sooner) until the table fits or every column is down to its
    /// header (at least 3 cells).
    func columnWidths(fitting width: Int?, cells: [Int]) -> [Int] {
        let columns = header.count
        var widths = [Int](repeating: 0, count: columns)
        for (k, w) in cells.enumerated() { widths[k % columns] = max(widths[k % columns], w) }
        guard let width else { return widths }
        let floors = (0..<columns).map { keep.contains($0) ? widths[$0] : min(widths[$0], max(3, TerminalCells.width(header[$0]))) }
        var total = widths.reduce(0, +) + 2 * (columns - 1)
        for step in giveWay where total > width && step.column < columns {
            let floor = max(step.downTo, floors[step.column])
            let cut = min(total - width, max(0, widths[step.column] - floor))
            widths[step.column] -= cut
            total -= cut
        }
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
