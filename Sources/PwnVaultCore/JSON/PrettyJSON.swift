import FoundationEssentials

/// JSON text laid out byte for byte as `JSONEncoder` with `.prettyPrinted`, `.sortedKeys`,
/// `.withoutEscapingSlashes` and `.iso8601` dates writes it (two-space indent, `"key" : value`, an
/// empty container as `[` blank line `]`), for output too large to pay the encoder's price
/// (`list --json`: the encoder with sorted keys cost twice the rest of `list` on 10,000 accounts).
/// The caller writes members in the encoder's sorted order and leaves nil ones out; a test compares the
/// result with the encoder's.
///
/// `document(_:)` runs the caller's writing twice, counting and then writing (`JSONBytes`), straight
/// into a string of exactly the document's size: no array grown piece by piece, no copy.
public struct PrettyJSON {
    private var out: JSONBytes
    private var level = 0
    /// Whether the innermost open container has nothing in it yet.
    private var empty = true

    private init(output: UnsafeMutableRawBufferPointer?) { out = JSONBytes(output: output) }

    /// The document `write` lays out, followed by a new line. `write` is called twice and must write
    /// the same both times.
    public static func document(_ write: (inout PrettyJSON) -> Void) -> String {
        var counter = PrettyJSON(output: nil)
        write(&counter)
        let length = counter.out.count + 1
        return String(unsafeUninitializedCapacity: length) { buffer in
            var writer = PrettyJSON(output: UnsafeMutableRawBufferPointer(buffer))
            write(&writer)
            precondition(writer.out.count == length - 1, "the JSON changed length between passes")
            buffer[length - 1] = UInt8(ascii: "\n")
            return length
        }
    }

    public mutating func openArray() { open(UInt8(ascii: "[")) }
    public mutating func closeArray() { close(UInt8(ascii: "]")) }
    public mutating func openObject() { open(UInt8(ascii: "{")) }
    public mutating func closeObject() { close(UInt8(ascii: "}")) }

    /// Before each value of an array.
    public mutating func element() { nextLine() }

    /// Before a member's value: `"name" : `. Names are plain ASCII (Swift property names).
    public mutating func key(_ name: StaticString) {
        nextLine()
        out.append(UInt8(ascii: "\""))
        out.append(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.appendLiteral("\" : ")
    }

    /// `value` quoted and escaped as JSONEncoder does with `.withoutEscapingSlashes` (the payload's
    /// escaping, Docs/VAULT_FORMAT.md §7.1).
    public mutating func string(_ value: String) { out.appendQuoted(value) }
    public mutating func int(_ value: Int) { out.append(value) }

    /// `date` quoted as JSONEncoder's `.iso8601` strategy writes it: `"2026-11-30T21:04:05Z"`, UTC,
    /// seconds rounded down. Foundation's calendar is Julian before 15 October 1582, so dates before
    /// 1583 and after 9999 are left to `Date.ISO8601FormatStyle`, which that strategy uses.
    public mutating func date(_ value: Date) {
        let seconds = value.timeIntervalSinceReferenceDate.rounded(.down)
        out.append(UInt8(ascii: "\""))
        if seconds >= Self.firstFastSecond, seconds <= Self.lastFastSecond {
            let milliseconds = (Int64(seconds) + Self.secondsFrom1970ToReference) * 1000
            out.append(count: 20) { target in
                // `YYYY-MM-DDTHH:MM:SS.sssZ` written whole into scratch, its first 19 bytes kept.
                withUnsafeTemporaryAllocation(byteCount: PayloadTimestamp.length, alignment: 1) { stamp in
                    PayloadTimestamp.write(milliseconds: milliseconds, into: stamp)
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: stamp[0..<19]))
                }
                target[19] = UInt8(ascii: "Z")
            }
        } else {
            var text = Date.ISO8601FormatStyle().format(value)
            text.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        out.append(bracket)
        level += 1
        empty = true
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        level -= 1
        if empty { out.append(UInt8(ascii: "\n")) }
        newline()
        out.append(bracket)
        empty = false
    }

    /// The comma after the previous value, if any, and the indented new line for the next one.
    @inline(__always)
    private mutating func nextLine() {
        if !empty { out.append(UInt8(ascii: ",")) }
        empty = false
        newline()
    }

    /// A new line and the indent (a few bytes: stored one by one, not through memset).
    @inline(__always)
    private mutating func newline() {
        let indent = 2 * level
        out.append(count: 1 + indent) { target in
            target[0] = UInt8(ascii: "\n")
            for i in 1..<(1 + indent) { target[i] = UInt8(ascii: " ") }
        }
    }

    private static let secondsFrom1970ToReference: Int64 = 978_307_200
    /// 1583-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since the reference date.
    private static let firstFastSecond = Double(CivilCalendar.daysFromCivil(year: 1583, month: 1, day: 1) * 86_400
                                                - secondsFrom1970ToReference)
    private static let lastFastSecond = Double(CivilCalendar.daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400 - 1
                                               - secondsFrom1970ToReference)
}
