/// The 40 hex characters of one line of a Pwned Passwords file, upper-cased and packed into five
/// big-endian words so that comparing keys is comparing five integers, in the file's (byte) order.
/// These are public hashes from the file, never the password's.
struct PasswordFileKey: Equatable {
    var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64, w4: UInt64

    /// Reads 40 bytes at `base`; nil when one of them is not a hex digit.
    @inline(__always)
    init?(_ base: UnsafeRawPointer) {
        func word(_ i: Int) -> UInt64? {
            var w: UInt64 = 0
            for j in 0..<8 {
                guard let d = HexText.upperHexDigit(base.load(fromByteOffset: i * 8 + j, as: UInt8.self)) else { return nil }
                w = w << 8 | UInt64(d)
            }
            return w
        }
        guard let a = word(0), let b = word(1), let c = word(2), let d = word(3), let e = word(4) else { return nil }
        w0 = a; w1 = b; w2 = c; w3 = d; w4 = e
    }

    /// -1, 0 or 1 as this key sorts before, equal to or after the 40 upper-case hex bytes of `target`.
    /// The target's words exist only in registers during the comparison.
    @inline(__always)
    func compare(to target: UnsafeRawBufferPointer) -> Int {
        @inline(__always) func t(_ i: Int) -> UInt64 {
            UInt64(bigEndian: target.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
        }
        return Self.order(w0, w1, w2, w3, w4, t(0), t(1), t(2), t(3), t(4))
    }

    /// -1, 0 or 1 as this key sorts before, equal to or after `other`.
    func compare(to other: PasswordFileKey) -> Int {
        Self.order(w0, w1, w2, w3, w4, other.w0, other.w1, other.w2, other.w3, other.w4)
    }

    @inline(__always)
    private static func order(_ a0: UInt64, _ a1: UInt64, _ a2: UInt64, _ a3: UInt64, _ a4: UInt64,
                              _ b0: UInt64, _ b1: UInt64, _ b2: UInt64, _ b3: UInt64, _ b4: UInt64) -> Int {
        if a0 != b0 { return a0 < b0 ? -1 : 1 }
        if a1 != b1 { return a1 < b1 ? -1 : 1 }
        if a2 != b2 { return a2 < b2 ? -1 : 1 }
        if a3 != b3 { return a3 < b3 ? -1 : 1 }
        if a4 != b4 { return a4 < b4 ? -1 : 1 }
        return 0
    }
}
