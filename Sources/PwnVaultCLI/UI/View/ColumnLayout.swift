import PwnVaultCore

/// A table's columns sharing the width by priority: each column first gets its minimum (or less, when
/// its content needs less), then the width left goes to the columns in priority order, each up to what
/// its content needs and never more (a wide terminal leaves room at the end rather than stretching a
/// column). Where even the minimums do not fit, the columns of lowest priority are left out.
struct ColumnLayout: Equatable {
    struct Column: Equatable {
        let title: String
        /// 0 is the most important.
        let priority: Int
        let minimum: Int
        var rightAligned = false
    }

    static let gap = 2

    /// The width of each column (0: left out) for content whose widest cell (the title included) is `needs`.
    static func widths(_ columns: [Column], needs: [Int], width: Int) -> [Int] {
        let need = columns.indices.map { max(needs[$0], TerminalCells.width(columns[$0].title)) }
        var widths = columns.indices.map { min(columns[$0].minimum, need[$0]) }
        let byPriority = columns.indices.sorted { (columns[$0].priority, $0) < (columns[$1].priority, $1) }
        func used() -> Int {
            let shown = widths.filter { $0 > 0 }
            return shown.reduce(0, +) + gap * max(0, shown.count - 1)
        }
        for i in byPriority.reversed() where used() > width && i != byPriority.first { widths[i] = 0 }
        if used() > width, let first = byPriority.first { widths[first] = max(1, width) }
        for i in byPriority where widths[i] > 0 {
            widths[i] += max(0, min(need[i] - widths[i], width - used()))
        }
        return widths
    }

    /// Cells fitted to `widths` (cut with … where too long, left out where 0), two spaces apart.
    static func row(_ cells: [String], _ widths: [Int], right: Set<Int> = []) -> String {
        var parts: [String] = []
        for (i, cell) in cells.enumerated() where widths[i] > 0 {
            let cut = TerminalCells.truncate(cell, to: widths[i])
            let pad = String(repeating: " ", count: max(0, widths[i] - TerminalCells.width(cut)))
            parts.append(right.contains(i) ? pad + cut : cut + pad)
        }
        return parts.joined(separator: String(repeating: " ", count: gap))
    }
}
