/// One vCard content line after unfolding: the physical lines it was made of, joined.
struct VCardLogicalLine: Equatable {
    /// The physical line it starts on (from 1).
    let line: Int
    /// The physical line it ends on.
    var lastLine: Int
    var bytes: [UInt8]
    /// Why the line cannot be read (a NUL byte, a fold that continues nothing, a soft line break
    /// nothing continues); nil for a line to parse.
    var problem: VCardError?

    init(line: Int, lastLine: Int, bytes: [UInt8]) {
        self.line = line; self.lastLine = lastLine; self.bytes = bytes
    }

    /// Appends the next physical line (number `line`).
    mutating func join(_ content: ArraySlice<UInt8>, line: Int, nul: Bool) {
        bytes.append(contentsOf: content)
        lastLine = line
        if nul && problem == nil { problem = .binary(line: line) }
    }
}
