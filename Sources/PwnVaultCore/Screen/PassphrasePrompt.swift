/// Reads passphrases: from the controlling terminal with echo off, or the first line of a file descriptor.
///
/// The bytes go straight from `read(2)` into `SecretBytes`, one at a time: no `String`, no Foundation
/// buffer ever holds them, and nothing past the first line is consumed.
public enum PassphrasePrompt {
    /// The longest passphrase accepted, in bytes. A longer line is refused rather than cut short.
    public static let maxBytes = 1024

    /// Writes `prompt` to the controlling terminal (`/dev/tty`, whatever stdin and stdout are), reads one
    /// line with echo off, and restores the terminal, also when a signal interrupts (see `EchoOffGuard`).
    /// The trailing newline is not part of the result.
    ///
    /// Throws `TerminalError.noTerminal` when there is no controlling terminal, `.inputClosed` on end of
    /// input before anything was typed, `.passphraseTooLong` beyond `maxBytes`.
    public static func read(prompt: String) throws -> SecretBytes {
        guard let fd = TerminalIO.openControllingTerminal() else { throw TerminalError.noTerminal }
        defer { TerminalIO.close(fd) }
        guard let guardian = EchoOffGuard(fd: fd, prompt: Array(Sanitizer.singleLine(prompt).utf8)) else {
            throw TerminalError.noTerminal
        }
        let outcome = Result { try readLine(fd: fd, stopAtCarriageReturn: true) }
        guardian.restore()
        if case let .success(line?) = outcome { return line }
        // No Enter was read, so ECHONL did not move to the next line: do it for the user.
        TerminalIO.poke(fd, 10)
        if case let .failure(error) = outcome { throw error }
        throw TerminalError.inputClosed
    }

    /// The first line read from `fd` (for `--passphrase-fd` and `--passphrase-file`), without its line
    /// ending (`\n` or `\r\n`). End of input ends the line too; an empty input gives an empty result,
    /// which the caller should refuse where a passphrase is required. Reads no further than the line.
    public static func readLine(fd: Int32) throws -> SecretBytes {
        try readLine(fd: fd, stopAtCarriageReturn: false) ?? SecretBytes(count: 0)
    }

    /// Reads up to and including the first line ending; nil when the input ended before any byte.
    private static func readLine(fd: Int32, stopAtCarriageReturn: Bool) throws -> SecretBytes? {
        // One spare byte: the line ending of a passphrase of exactly `maxBytes` bytes.
        let buffer = SecretBytes(count: maxBytes + 1)
        var count = 0
        var sawAnyByte = false
        var ended = false
        try buffer.withUnsafeMutableBytes { bytes in
            while count < bytes.count {
                switch TerminalIO.readByte(fd, into: bytes.baseAddress! + count) {
                case .byte: break
                case .interrupted: continue
                case let .wouldBlock(reason), let .failed(reason): throw TerminalError.readFailed(reason: reason)
                case .ended: ended = true; return
                }
                sawAnyByte = true
                let byte = bytes[count]
                if byte == 0x0A || (stopAtCarriageReturn && byte == 0x0D) {
                    bytes[count] = 0
                    ended = true
                    return
                }
                count += 1
            }
        }
        guard ended, count <= maxBytes else { throw TerminalError.passphraseTooLong }
        guard sawAnyByte else { return nil }
        let length = buffer.withUnsafeBytes { bytes in
            count > 0 && bytes[count - 1] == 0x0D ? count - 1 : count   // "\r\n" line ending
        }
        return buffer.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }
}
