/// One vCard content line after unfolding: the physical lines it was made of, joined.
struct VCardLogicalLine: Equatable {
    /// The physical line it starts on (from 1).
    let line: Int
    /// The physical line it ends on.
    var lastLine: Int
    var bytes: [UInt8]
}
