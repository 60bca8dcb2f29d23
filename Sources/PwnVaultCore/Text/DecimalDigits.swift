/// A non-negative integer's decimal digits written straight into bytes, for the text built by hand on
/// hot paths (`list`'s `#ID` cells, the JSON writers' numbers) where `description` and an append cost
/// more than the rest of the cell.
public enum DecimalDigits {
    /// How many digits `magnitude` has (1 for 0).
    public static func count(_ magnitude: UInt) -> Int {
        var digits = 1, rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        return digits
    }

    /// Writes the digits of `magnitude` into `out`, which is exactly `count(magnitude)` bytes.
    public static func write(_ magnitude: UInt, into out: UnsafeMutableRawBufferPointer) {
        var rest = magnitude
        for i in stride(from: out.count - 1, through: 0, by: -1) {
            out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }
}
