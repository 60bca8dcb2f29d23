import PwnVaultCore

/// A page of text scrolled by rows (result, detail, help): `scroll` is the first row shown.
struct ScrolledText: Equatable {
    var scroll = 0

    /// Moves by `key`; false when the key is not a scrolling one. `total` rows, `height` shown at once.
    mutating func take(_ key: UIKey, total: Int, height: Int) -> Bool {
        switch key {
        case .up, .char("k"), .wheelUp: scroll -= 1
        case .down, .char("j"), .wheelDown: scroll += 1
        case .pageUp: scroll -= height
        case .pageDown, .char(" "): scroll += height
        case .home, .char("g"): scroll = 0
        case .end, .char("G"): scroll = total
        default: return false
        }
        scroll = max(0, min(scroll, total - height))
        return true
    }

    func visible(_ rows: [UIRow], height: Int) -> [UIRow] {
        Array(rows.dropFirst(max(0, min(scroll, rows.count - height))).prefix(height))
    }
}
