import PwnVaultCore

/// A plain text table: columns padded to the widest cell (in terminal cells, so CJK and emoji align),
/// two spaces apart, the last column unpadded. Given a width, columns give way by what the reader
/// needs: first a column with shorter `forms` (dates) takes them, then the `giveWay` steps, then the
/// widest columns shrink until the table fits. Cells cut short end in `…`, except in `wraps` columns
/// (continued on the rows below) and the `spills` column (moved whole onto a row of its own); columns
/// in `keep` (ids, counts) are never cut.
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
    /// Shorter forms of a column's cells (a date: `today 14:33`, then `today`), one list a row, longest
    /// first. Where the table is too wide, the whole column takes its next form before anything else
    /// gives way (`dates shorten before anything is cut`); a row without forms keeps its cell.
    var forms: [Int: [[String]]] = [:]
    /// Columns whose cells wrap at spaces onto the rows below rather than end in `…` (a status): such
    /// a column is never narrower than its longest word.
    var wraps: Set<Int> = []
    /// The last column, when a cell too wide for it moves whole onto a row of its own below (a breach
    /// name, which commands take), as far left as it must to fit the width, rather than being cut.
    var spills: Int?

    init(header: [String], rows: [[String]] = [], keep: Set<Int> = [], shrinkFirst: Set<Int> = [],
         giveWay: [(column: Int, downTo: Int)] = [], wraps: Set<Int> = [], spills: Int? = nil) {
        self.header = header; self.rows = rows; self.keep = keep; self.shrinkFirst = shrinkFirst; self.giveWay = giveWay
        self.wraps = wraps; self.spills = spills
    }

    func render(width: Int? = nil, style: (String) -> String = { $0 }) -> [String] {
        let groups = renderRows(width: width, style: style)
        return groups.count == rows.count + 1 && !groups.contains(where: { $0.count != 1 }) ? groups.map { $0[0] } : groups.flatMap { $0 }
    }

    /// The table with the shortest forms it needs to fit `width`: the longest that fit, or the last.
    func withForms(fitting width: Int?) -> Table {
        guard let width, !forms.isEmpty else { return self }
        var table = self
        func total(_ t: Table) -> Int {
            var widths = t.header.map { TerminalCells.width($0) }
            for row in t.rows { for (i, cell) in row.prefix(widths.count).enumerated() { widths[i] = max(widths[i], TerminalCells.width(cell)) } }
            return widths.reduce(0, +) + 2 * (widths.count - 1)
        }
        var level = 0
        while total(table) > width {
            level += 1
            var changed = false
            for (column, perRow) in forms.sorted(by: { $0.key < $1.key }) {
                for r in table.rows.indices where r < perRow.count && column < table.rows[r].count {
                    let f = perRow[r]
                    guard !f.isEmpty else { continue }
                    table.rows[r][column] = f[min(level, f.count) - 1]
                    if level <= f.count { changed = true }
                }
            }
            if !changed { break }
        }
        table.forms = [:]
        return table
    }

    /// The lines of each row (the header first): one a row, more where a cell wraps or spills.
    func renderRows(width: Int? = nil, style: (String) -> String = { $0 }) -> [[String]] {
        if width != nil, !forms.isEmpty { return withForms(fitting: width).renderRows(width: width, style: style) }
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
        var lines = [[style(line(header, cells[0..<columns], &bytes))]]
        lines.reserveCapacity(rows.count + 1)
        let flowing = wraps.union(spills.map { [$0] } ?? [])
        for (r, row) in rows.enumerated() {
            let measured = cells[(r + 1) * columns..<(r + 2) * columns]
            if !flowing.isEmpty, flowing.contains(where: { $0 < columns && measured[measured.startIndex + $0] > widths[$0] }) {
                lines.append(flowed(row, measured, widths, total: width))
            } else {
                lines.append([line(row, measured, &bytes)])
            }
        }
        return lines
    }

    /// A row whose wrapping or spilling cell does not fit its column: the cells that wrap continue on
    /// the rows below (the other columns blank there), and a spilling cell moves whole onto a row of its own.
    private func flowed(_ row: [String], _ measured: ArraySlice<Int>, _ widths: [Int], total: Int?) -> [String] {
        let columns = header.count
        var parts: [[String]] = []
        var spilled: String?
        for i in 0..<columns {
            let cell = i < row.count ? row[i] : ""
            let w = measured[measured.startIndex + i]
            if w <= widths[i] { parts.append([cell]); continue }
            if i == spills { parts.append([""]); spilled = cell; continue }
            if wraps.contains(i) { parts.append(TerminalCells.wrap(cell, to: widths[i])); continue }
            parts.append([TerminalCells.truncate(cell, to: widths[i])])
        }
        let height = parts.map(\.count).max() ?? 1
        var out: [String] = []
        for k in 0..<height {
            var text = ""
            for i in 0..<columns {
                if i > 0 { text += "  " }
                let cell = k < parts[i].count ? parts[i][k] : ""
                text += i < columns - 1 ? TerminalCells.pad(cell, to: widths[i]) : cell
            }
            out.append(text.trailingSpacesTrimmed)
        }
        if let spilled, let column = spills {
            let start = widths.prefix(column).reduce(0, +) + 2 * column
            let room = (total ?? Int.max) - TerminalCells.width(spilled)
            out.append(String(repeating: " ", count: max(0, min(start, room))) + spilled)
        }
        return out
    }

    /// Whether, fitted to `width`, column `column` keeps its widest cell (nothing in it ends in `…`).
    func keepsWhole(_ column: Int, at width: Int?) -> Bool {
        if width != nil, !forms.isEmpty { return withForms(fitting: width).keepsWhole(column, at: width) }
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
        table.forms = Dictionary(uniqueKeysWithValues: forms.compactMap { $0.key == column ? nil : ($0.key > column ? $0.key - 1 : $0.key, $0.value) })
        table.wraps = shifted(wraps)
        table.spills = spills.flatMap { $0 == column ? nil : $0 > column ? $0 - 1 : $0 }
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
        let floors = (0..<columns).map { i -> Int in
            if keep.contains(i) { return widths[i] }
            let least = min(widths[i], max(3, TerminalCells.width(header[i])))
            guard wraps.contains(i) else { return least }
            // A wrapping column is never narrower than its longest word (nothing in it is cut).
            var word = 0
            for r in rows.indices where i < rows[r].count && cells[(r + 1) * columns + i] > least {
                for w in rows[r][i].split(separator: " ") { word = max(word, TerminalCells.width(w)) }
            }
            return max(least, word)
        }
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
