import PwnVaultCore

/// The keys in the status line: all of them where they fit; where not, the least important go first,
/// so `? keys` and `q quit` stay at any width.
struct Footer: Equatable {
    struct Key: Equatable {
        let key: String
        let what: String
        /// 0 stays always; higher goes first.
        let priority: Int
        init(_ key: String, _ what: String, _ priority: Int) { self.key = key; self.what = what; self.priority = priority }
        var text: String { key + " " + what }
    }

    static let gap = "  "

    /// The keys that fit in `width` cells, in their order.
    static func line(_ keys: [Key], width: Int) -> String {
        var kept = keys
        func text() -> String { kept.map(\.text).joined(separator: gap) }
        while TerminalCells.width(text()) > width,
              let drop = kept.indices.filter({ kept[$0].priority > 0 }).max(by: { (kept[$0].priority, $0) < (kept[$1].priority, $1) }) {
            kept.remove(at: drop)
        }
        return text()
    }
}
