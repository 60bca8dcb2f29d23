/// A yes-or-no question asked on the controlling terminal (`/dev/tty`), whatever stdin and stdout are,
/// so that the question and what it is about never reach a pipe or a log.
public struct TerminalQuestion {
    private let tty: FileDescriptor

    /// The controlling terminal when a person is at it (stdin is a terminal too); nil otherwise.
    public static func onTerminal(input: Int32 = StandardStream.inputDescriptor) -> TerminalQuestion? {
        guard TerminalCapabilities.isATTY(input), let tty = openTerminal() else { return nil }
        return TerminalQuestion(tty: tty)
    }

    /// Writes `lines` and `question`, reads one answer: true only for `y` or `yes` (any case); Enter,
    /// anything else or the end of input (Ctrl-D) mean no.
    public func confirm(_ lines: [String], question: String) -> Bool {
        let text = (lines + [question]).map(Sanitizer.singleLine).joined(separator: "\n")
        try? tty.writeAll(Array(text.utf8))
        guard let answer = Self.readLine(from: tty) else {
            try? tty.writeAll(Array("\n".utf8))
            return false
        }
        return ["y", "yes"].contains(answer.trimmingWhitespace().lowercased())
    }

    /// The controlling terminal, read-write (what `FileHandle(forUpdatingAtPath: "/dev/tty")` opened).
    static func openTerminal() -> FileDescriptor? {
        TerminalIO.openControllingTerminal().map(FileDescriptor.init(raw:))
    }

    /// One line from the terminal, read a byte at a time so that nothing after it is taken; at most
    /// 4096 bytes are kept. nil when the input ended (Ctrl-D on an empty line) or the terminal went away.
    static func readLine(from tty: FileDescriptor) -> String? {
        var bytes: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            var outcome: TerminalIO.ByteOutcome
            repeat { outcome = TerminalIO.readByte(tty.raw, into: &byte) } while outcome == .interrupted
            guard outcome == .byte else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == 0x0A || byte == 0x0D { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < 4096 { bytes.append(byte) }
        }
    }
}
