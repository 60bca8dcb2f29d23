/// A selection in a list shown `height` rows at a time: which row is selected and which is on top.
struct ListCursor {
    var selected = 0
    var top = 0

    mutating func move(_ delta: Int, count: Int, height: Int) {
        guard count > 0 else { selected = 0; top = 0; return }
        selected = min(max(0, selected + delta), count - 1)
        keepVisible(count: count, height: height)
    }

    mutating func keepVisible(count: Int, height: Int) {
        selected = min(max(0, selected), max(0, count - 1))
        let h = max(1, height)
        if selected < top { top = selected }
        if selected >= top + h { top = selected - h + 1 }
        top = min(max(0, top), max(0, count - h))
    }
}

/// Case-insensitive substring search over bytes: fast enough for 10,000 rows on every typed key.
struct Haystack {
    let bytes: [UInt8]

    init(_ texts: [String]) {
        bytes = Array(texts.joined(separator: "\u{1}").lowercased().utf8)
    }

    static func needle(_ query: String) -> [UInt8] { Array(query.lowercased().utf8) }

    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= bytes.count else { return false }
        let first = needle[0], n = needle.count
        return bytes.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { q in
                var i = 0
                let last = h.count - n
                while i <= last {
                    if h[i] == first {
                        var j = 1
                        while j < n, h[i + j] == q[j] { j += 1 }
                        if j == n { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
