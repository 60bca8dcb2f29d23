/// Before the private screen opens: following focus from the passphrase prompt on.
///
/// Terminals such as xterm, alacritty and kitty do not say whether they have focus when focus
/// reporting is switched on; they only report changes. Switched on just before drawing, a focus change
/// made while the passphrase was typed or checked would go unseen, and the accounts would be drawn in
/// a window nobody looks at. So `reveal` calls `listen()` before asking for the passphrase, reads it
/// with `readPassphrase`, lets the key derivation run (reports queue up in the terminal meanwhile),
/// calls `settle()` and then `run`, which takes what came before drawing anything.
extension PrivateScreen {
    /// Starts following focus: key-at-a-time input without echo (ISIG kept), focus reporting on, the
    /// question whether it is on (`PrivateScreenTerminal.focusQuestion`), and the signals watched
    /// (a signal that comes before `run` is handled there, or dropped by `close()`).
    /// Throws `ScreenError.notATerminal` when `input` or `output` is not a terminal.
    public func listen() throws {
        guard listening == nil else { return }
        guard TerminalIO.isTerminal(output), let saved = TerminalIO.attributes(input) else { throw ScreenError.notATerminal }
        guard let signals = SignalPipe(signals: PrivateScreen.watchedSignals) else { throw ScreenError.noSignalPipe }
        var terminal = PrivateScreenTerminal(output: output, input: input, saved: saved)
        _ = terminal.listen(ask: true)
        listening = (terminal, signals)
    }

    /// Reads a passphrase typed on this terminal while following focus (listening first if needed):
    /// focus reports and answers to questions are taken out and never become part of it; Backspace
    /// erases a character, Ctrl-U the line; Enter ends it (and the window counts as focused from then
    /// on: the Enter was typed in it). The bytes go from `read(2)` straight into `SecretBytes`.
    ///
    /// Ctrl-Z stops the process with the terminal as it was and asks again on `fg` (what was typed so
    /// far is kept); Ctrl-C, SIGTERM, SIGHUP and SIGQUIT put the terminal back and throw
    /// `ScreenError.interrupted`. Throws `TerminalError.inputClosed` (Ctrl-D, hang-up) and
    /// `.passphraseTooLong` like `PassphrasePrompt`. The terminal stays listening until `run` or `close()`.
    public func readPassphrase(prompt: String) throws -> SecretBytes {
        try listen()
        let promptBytes = Array(Sanitizer.singleLine(prompt).utf8)
        TerminalIO.writeAll(input, promptBytes)
        let buffer = SecretBytes(count: PassphrasePrompt.maxBytes + 1)
        var count = 0
        var escapeSince: Double?
        func fail(_ error: Error) -> Error {
            TerminalIO.writeAll(input, Array("\r\n".utf8))
            close()
            return error
        }
        reading: while true {
            guard let (_, signals) = listening else { throw fail(TerminalError.inputClosed) }
            var wait: Int32 = -1
            if let since = escapeSince {
                wait = Int32(max(0, since + KeyReader.escapeDelay - TerminalIO.secondsSinceBoot()) * 1000) + 1
            }
            let ready = TerminalIO.poll([signals.readEnd, input], milliseconds: wait)
            if ready[0] {
                for signo in signals.takeSignals() {
                    switch signo {
                    case Signal.terminalStop:
                        TerminalIO.writeAll(input, Array("\r\n".utf8))
                        listening?.terminal.leave()
                        TerminalIO.stopProcess()
                        signals.reinstall(Signal.terminalStop)
                        if listening?.terminal.listen(ask: false) == true { TerminalIO.writeAll(input, promptBytes) }
                    case Signal.continue:
                        if listening?.terminal.isListening == false, listening?.terminal.listen(ask: false) == true {
                            TerminalIO.writeAll(input, promptBytes)
                        }
                    case Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit:
                        throw fail(ScreenError.interrupted(signal: signo))
                    default:
                        break   // SIGWINCH, a wake byte
                    }
                }
            }
            guard ready[1], listening?.terminal.isListening == true else {
                if let since = escapeSince, TerminalIO.secondsSinceBoot() - since >= KeyReader.escapeDelay {
                    escapeSince = nil
                    for event in keys.flush() { _ = focus.take(event) }   // a lone Esc: not part of a passphrase
                }
                continue
            }
            // One byte, read into the secret buffer itself: it may be part of the passphrase.
            switch buffer.withUnsafeMutableBytes({ TerminalIO.readByte(input, into: $0.baseAddress! + count) }) {
            case .byte: break
            case .interrupted, .wouldBlock: continue
            case let .failed(reason): throw fail(TerminalError.readFailed(reason: reason))
            case .ended: throw fail(TerminalError.inputClosed)
            }
            let byte = buffer.withUnsafeBytes { $0[count] }
            if byte == 0x0A || byte == 0x0D {   // Enter; terminals never put it inside an escape sequence
                buffer.withUnsafeMutableBytes { $0[count] = 0 }
                for event in keys.flush() { _ = focus.take(event) }
                break reading
            }
            if byte == 0x1B || keys.isWaitingAfterEscape {
                // A focus report, an answer, an arrow or Esc: the terminal's, never the passphrase's.
                buffer.withUnsafeMutableBytes { $0[count] = 0 }
                for event in keys.feed(CollectionOfOne(byte)) { _ = focus.take(event) }
                escapeSince = keys.isWaitingAfterEscape ? TerminalIO.secondsSinceBoot() : nil
                continue
            }
            escapeSince = nil
            switch byte {
            case 0x7F, 0x08:   // Backspace: erase one character (all the bytes of a UTF-8 one)
                buffer.withUnsafeMutableBytes { bytes in
                    bytes[count] = 0
                    while count > 0 {
                        count -= 1
                        let erased = bytes[count]
                        bytes[count] = 0
                        if erased & 0xC0 != 0x80 { break }
                    }
                }
            case 0x15:   // Ctrl-U: erase the line
                buffer.withUnsafeMutableBytes { bytes in
                    for i in 0...count { bytes[i] = 0 }
                }
                count = 0
            case 0x04:   // Ctrl-D: end of input on an empty line, as at a canonical prompt
                buffer.withUnsafeMutableBytes { $0[count] = 0 }
                if count == 0 { throw fail(TerminalError.inputClosed) }
            case 0x03:   // Ctrl-C as a byte (ISIG off elsewhere): the same as the signal
                buffer.withUnsafeMutableBytes { $0[count] = 0 }
                throw fail(ScreenError.interrupted(signal: Signal.interrupt))
            default:
                count += 1
                if count > PassphrasePrompt.maxBytes { throw fail(TerminalError.passphraseTooLong) }
            }
        }
        TerminalIO.writeAll(input, Array("\r\n".utf8))
        focus.focused = true   // the Enter was typed in this window: the person is here
        return buffer.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Takes what the terminal sent since the passphrase (focus reports, the answers to the question)
    /// without waiting, or waiting up to `limit` seconds when the device-attributes answer has not come
    /// yet; keys typed meanwhile are dropped. Returns what is known about focus reporting. Call it after
    /// the key derivation, just before `run`.
    public func settle(limit: Double = 0.25) -> FocusReporting {
        guard let (terminal, _) = listening, terminal.isListening else { return focus.reporting }
        let deadline = TerminalIO.secondsSinceBoot() + limit
        while true {
            let left = focus.deviceAttributesSeen ? 0 : deadline - TerminalIO.secondsSinceBoot()
            guard left >= 0, TerminalIO.poll([input], milliseconds: left > 0 ? Int32(left * 1000) + 1 : 0)[0],
                  case let .bytes(bytes) = TerminalIO.read(input) else { break }
            for event in keys.feed(bytes) { _ = focus.take(event) }
        }
        return focus.reporting
    }
}
