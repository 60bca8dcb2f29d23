/// Edit distance for "did you mean …?": over characters, case-insensitive, a swap of two neighbours
/// counting as one edit (`lsit` → `list`). Shared by the command line (commands, options, breach
/// names) and the vault (the closest account, which never leaves PwnVaultCore as text).
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The most edits a near miss of `word` may be: a third of its length, at least 2.
    public static func limit(for word: String) -> Int { max(2, word.count / 3) }
}
