/// Reads passwords, one per line, from a file descriptor (stdin when it is not a terminal), in large
/// chunks straight into secret memory: no `String` and no Foundation buffer ever holds them.
///
/// Each line is handed out in place, without its `\n` or `\r\n`, with its 1-based line number; the
/// buffer is wiped when the reader goes away. Empty lines are skipped (their numbers still count).
public final class PasswordLineReader {
    /// The longest line accepted, in bytes (as for passphrases).
    public static let maxLineBytes = PassphrasePrompt.maxBytes
    static let chunkBytes = 64 * 1024

    private let input: FileDescriptor

    /// A reader of `fd`; it does not close it.
    public init(fd: Int32) { input = .borrowing(fd) }

    /// A reader of the standard input.
    public static func standardInput() -> PasswordLineReader { PasswordLineReader(fd: 0) }

    /// Calls `body` with each non-empty line and its number, in order, until the input ends.
    /// Throws `PasswordInputError`, or what `body` throws.
    public func forEachLine(_ body: (_ lineNumber: Int, _ password: UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = SecretBytes(count: Self.chunkBytes + Self.maxLineBytes + 2)
        try buffer.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            var filled = 0       // bytes in the buffer
            var lineNumber = 0
            var ended = false
            while !ended {
                let n: Int
                do {
                    n = try input.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: bytes.count - filled))
                } catch let error as SystemError {
                    throw PasswordInputError.readFailed(reason: error.reason)
                }
                if n == 0 { ended = true }
                let scanFrom = filled
                filled += n
                var start = 0
                var i = scanFrom
                while i < filled {
                    if bytes[i] == 0x0A {
                        lineNumber += 1
                        try deliver(bytes, start, i, lineNumber, body)
                        start = i + 1
                    }
                    i += 1
                }
                if ended && start < filled {   // a last line without a line ending
                    lineNumber += 1
                    try deliver(bytes, start, filled, lineNumber, body)
                    start = filled
                }
                // Keep the unfinished line at the front of the buffer.
                let rest = filled - start
                if rest > Self.maxLineBytes + 1 { throw PasswordInputError.lineTooLong(line: lineNumber + 1) }
                if start > 0 && rest > 0 { (base).copyMemory(from: base + start, byteCount: rest) }
                filled = rest
            }
        }
    }

    private func deliver(_ bytes: UnsafeMutableRawBufferPointer, _ start: Int, _ end: Int, _ lineNumber: Int,
                         _ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        var end = end
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        guard end - start <= Self.maxLineBytes else { throw PasswordInputError.lineTooLong(line: lineNumber) }
        guard end > start else { return }
        try body(lineNumber, UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }
}
