import FoundationEssentials

/// The byte level shared by the JSON written by hand: the vault payload (`PayloadJSONWriter`, the
/// canonical form of Docs/VAULT_FORMAT.md §7.1) and `list --json` (`PrettyJSON`, JSONEncoder's layout).
///
/// A writer runs twice over its document: once counting (`output` nil), so the caller can allocate
/// exactly the bytes it needs, then writing straight into them. Both passes run every line of the same
/// code, so they cannot disagree; the writing pass checks its bounds anyway. No piece is appended to a
/// growing array: each is one bounds check and a copy.
struct JSONBytes {
    /// Where the bytes go; nil while only counting.
    let output: UnsafeMutableRawBufferPointer?
    /// Bytes written (or counted) so far.
    private(set) var count = 0

    init(output: UnsafeMutableRawBufferPointer?) { self.output = output }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if let output {
            precondition(count < output.count, "the JSON outgrew its buffer")
            output[count] = byte
        }
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > 0, let target = next(bytes.count) { target.copyMemory(from: bytes) }
        count += bytes.count
    }

    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// `length` bytes that `fill` writes (it is called only in the writing pass).
    @inline(__always)
    mutating func append(count length: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) {
        if let target = next(length) { fill(target) }
        count += length
    }

    /// An integer in decimal, without a sign when non-negative.
    mutating func append(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        append(count: DecimalDigits.count(magnitude)) { DecimalDigits.write(magnitude, into: $0) }
    }

    /// A string in quotes, escaped as §7.1 says: `"` and `\` with a backslash; U+0008, U+0009, U+000A,
    /// U+000C and U+000D as `\b \t \n \f \r`; the other characters below U+0020 as `\u00xx` (lower-case
    /// hex); everything else, `/`, U+007F and all non-ASCII included, as its UTF-8 bytes. That is also
    /// what JSONEncoder writes with `.withoutEscapingSlashes`.
    mutating func appendQuoted(_ string: String) {
        var string = string
        string.withUTF8 { appendQuoted(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `appendQuoted` for text given as (valid) UTF-8 bytes.
    mutating func appendQuoted(bytes raw: UnsafeRawBufferPointer) {
        append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < raw.count {
            // Eight bytes at a time while none needs an escape (the common case), then one at a time.
            while raw.count - i >= 8, !Self.mayNeedEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
            }
            guard i < raw.count else { break }
            let byte = raw[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                append(UnsafeRawBufferPointer(rebasing: raw[runStart..<i]))
                appendEscape(of: byte)
                runStart = i + 1
            }
            i += 1
        }
        append(UnsafeRawBufferPointer(rebasing: raw[runStart...]))
        append(UInt8(ascii: "\""))
    }

    /// Appends the UTF-8 text `utf8` to `out` as a quoted, canonically escaped JSON string (for the
    /// reader, which keeps unknown members in canonical form).
    static func appendQuoted(_ utf8: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var counter = JSONBytes(output: nil)
        counter.appendQuoted(bytes: utf8)
        if counter.count == utf8.count + 2 {   // nothing to escape (the usual case): the bytes as they are
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: counter.count))
        out.withUnsafeMutableBytes { buffer in
            var writer = JSONBytes(output: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
            writer.appendQuoted(bytes: utf8)
        }
    }

    /// False only when none of the eight bytes in `word` is a control character, a quote or a
    /// backslash (SWAR: each test sets the high bit of a byte that matches).
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highBits != 0 }
        return (word &- ones &* 0x20) & ~word & highBits != 0   // a byte < 0x20
            || hasZeroByte(word ^ (ones &* 0x22))               // a quote
            || hasZeroByte(word ^ (ones &* 0x5C))               // a backslash
    }

    private mutating func appendEscape(of byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0D: append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            appendLiteral(#"u00"#)
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    /// The next `length` bytes of `output` (nil while counting), after checking that they exist.
    @inline(__always)
    private func next(_ length: Int) -> UnsafeMutableRawBufferPointer? {
        guard let output else { return nil }
        precondition(length <= output.count - count, "the JSON outgrew its buffer")
        return UnsafeMutableRawBufferPointer(rebasing: output[count..<(count + length)])
    }
}
