import FoundationEssentials
import PwnVaultCore

/// JSON text laid out byte for byte as `JSONEncoder` with `.prettyPrinted`, `.sortedKeys`,
/// `.withoutEscapingSlashes` and `.iso8601` dates writes it (two-space indent, `"key" : value`, an
/// empty container as `[` blank line `]`), for output too large to pay the encoder's price
/// (`list --json`). The caller writes members in the encoder's sorted order and leaves nil ones out;
/// a test compares the result with the encoder's. `Console.json(_:)` prints it.
struct PrettyJSON {
    private(set) var bytes: [UInt8] = []
    private var level = 0
    /// Whether the innermost open container has nothing in it yet.
    private var empty = true

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func openArray() { open(UInt8(ascii: "[")) }
    mutating func closeArray() { close(UInt8(ascii: "]")) }
    mutating func openObject() { open(UInt8(ascii: "{")) }
    mutating func closeObject() { close(UInt8(ascii: "}")) }

    /// Before each value of an array.
    mutating func element() { nextLine() }

    /// Before a member's value: `"name" : `. Names are plain ASCII (Swift property names).
    mutating func key(_ name: StaticString) {
        nextLine()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
    }

    mutating func string(_ value: String) { JSONText.appendQuoted(value, to: &bytes) }
    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }
    mutating func date(_ value: Date) { JSONText.appendQuotedISO8601(value, to: &bytes) }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        level += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        level -= 1
        if empty { bytes.append(UInt8(ascii: "\n")) }
        newline()
        bytes.append(bracket)
        empty = false
    }

    /// The comma after the previous value, if any, and the indented new line for the next one.
    private mutating func nextLine() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        newline()
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
}
