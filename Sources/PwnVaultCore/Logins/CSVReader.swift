/// RFC 4180 CSV, as password managers write it and as people edit it afterwards: fields separated by
/// commas, records by CRLF or LF (a lone CR too), fields in double quotes may hold commas, quotes (doubled)
/// and line breaks. A UTF-8 byte-order mark before the first field is dropped.
///
/// Lenient where exporters are sloppy and strict where a guess would misread a password:
/// - a quote inside an unquoted field is an ordinary character (`ab"c`), text after a closing quote is
///   kept (`"ab"c` reads `abc`), as Python's csv module and spreadsheets read them;
/// - a quoted field still open at the end of the file cuts its record off: that record is reported
///   (`unterminatedQuote`) with the line it began on, never read, since where it should have ended
///   cannot be known;
/// - a field longer than `maxFieldBytes` makes its record a `fieldTooLarge` (no login field is that long).
///
/// The field bytes live in one scratch buffer, sized once (so it never moves), that is zeroed after each
/// record is handed over and again at the end: unquoted passwords stay only in the caller's input and in
/// the `SecretBytes` a reader copies them to.
struct CSVReader {
    /// One record: its fields, by index, as bytes valid only during the callback.
    struct Record {
        /// The physical line the record starts on (from 1).
        let line: Int
        /// The last physical line of the record (quoted line breaks make a record span lines).
        let lastLine: Int
        fileprivate let scratch: UnsafeMutableBufferPointer<UInt8>
        fileprivate let ranges: [Range<Int>]

        var count: Int { ranges.count }

        /// The field's bytes, empty when the record has fewer fields (a missing column reads as empty).
        func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            guard index >= 0, index < ranges.count else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(scratch)[ranges[index]])
        }

        /// The field as text, nil when it is not UTF-8 (the caller decides what that means).
        func text(_ index: Int) -> String? {
            let b = bytes(index)
            guard b.count > 0 else { return "" }
            return String(validating: b, as: UTF8.self)
        }

        /// Whether every field is empty (a blank line, or a line of commas).
        var isBlank: Bool { ranges.allSatisfy { $0.isEmpty } }
    }

    /// What stopped a record from being read.
    enum Problem: Equatable, Sendable {
        /// A quoted field was still open at the end of the file.
        case unterminatedQuote
        /// A field longer than `maxFieldBytes`.
        case fieldTooLarge
    }

    /// Longer than any URL, name or password a manager keeps; notes can be long, but never this.
    static let maxFieldBytes = 1 << 20

    /// Reads `input` record by record. `body` gets each record that was read; `problem` each one that
    /// was not, with its first and last line.
    static func read(_ input: [UInt8], _ body: (Record) throws -> Void,
                     problem: (Problem, _ line: Int, _ lastLine: Int) -> Void) rethrows {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, input.count))
        scratch.initialize(repeating: 0)
        defer {
            scratch.update(repeating: 0)
            scratch.deallocate()
        }
        var i = (input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF) ? 3 : 0
        var line = 1
        while i < input.count {
            let first = line
            var ranges: [Range<Int>] = []
            var used = 0
            var failure: Problem?
            var endOfRecord = false
            while !endOfRecord {
                // One field, starting at `i`.
                let start = used
                var quoted = false
                if i < input.count, input[i] == UInt8(ascii: "\"") { quoted = true; i += 1 }
                var closed = !quoted
                while i < input.count {
                    let c = input[i]
                    if quoted && !closed {
                        if c == UInt8(ascii: "\"") {
                            if i + 1 < input.count, input[i + 1] == UInt8(ascii: "\"") {
                                if failure == nil { scratch[used] = c; used += 1 }
                                i += 2; continue
                            }
                            closed = true; i += 1; continue
                        }
                        if c == 0x0A || (c == 0x0D && !(i + 1 < input.count && input[i + 1] == 0x0A)) { line += 1 }
                        if failure == nil { scratch[used] = c; used += 1 }
                        i += 1
                        continue
                    }
                    if c == UInt8(ascii: ",") || c == 0x0A || c == 0x0D { break }
                    if failure == nil { scratch[used] = c; used += 1 }
                    i += 1
                }
                if quoted && !closed {
                    scratch[start..<used].update(repeating: 0)
                    problem(.unterminatedQuote, first, max(first, endOfRecordLine(line, atEnd: true, input: input)))
                    for r in ranges { scratch[r].update(repeating: 0) }
                    return
                }
                if failure == nil, used - start > maxFieldBytes { failure = .fieldTooLarge }
                ranges.append(start..<used)
                if i >= input.count { endOfRecord = true; break }
                let c = input[i]
                i += 1
                if c == UInt8(ascii: ",") { continue }
                if c == 0x0D, i < input.count, input[i] == 0x0A { i += 1 }
                line += 1
                endOfRecord = true
            }
            let record = Record(line: first, lastLine: endOfRecordLine(line, atEnd: i >= input.count, input: input), scratch: scratch,
                                ranges: ranges)
            defer { scratch[0..<used].update(repeating: 0) }
            if let failure {
                problem(failure, record.line, record.lastLine)
            } else {
                try body(record)
            }
        }
    }

    /// The line a record ended on: `line` has already moved past the record's line break, unless the
    /// file ended without one.
    private static func endOfRecordLine(_ line: Int, atEnd: Bool, input: [UInt8]) -> Int {
        guard let last = input.last else { return line }
        return (atEnd && last != 0x0A && last != 0x0D) ? line : line - 1
    }
}
