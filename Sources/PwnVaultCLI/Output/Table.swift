/// A plain text table: columns padded to the widest cell, two spaces apart, the last column unpadded.
struct Table {
    var header: [String]
    var rows: [[String]] = []

    func render(style: (String) -> String = { $0 }) -> [String] {
        let all = [header] + rows
        let columns = header.count
        var widths = [Int](repeating: 0, count: columns)
        for row in all { for (i, cell) in row.enumerated() where i < columns { widths[i] = max(widths[i], cell.count) } }
        func line(_ row: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in row.enumerated() {
                parts.append(i == columns - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count))
            }
            return parts.joined(separator: "  ").trailingSpacesTrimmed
        }
        return [style(line(header))] + rows.map(line)
    }
}

extension String {
    var trailingSpacesTrimmed: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
