/// One thing a person (or their terminal) did at the keyboard, as `KeyReader` understands it.
public enum KeyEvent: Equatable, Sendable {
    /// The terminal gained focus (`ESC [ I`, sent while focus reporting is on).
    case focusIn
    /// The terminal lost focus (`ESC [ O`).
    case focusOut
    /// The Esc key on its own (an ESC that no sequence followed within `KeyReader.escapeDelay`).
    case escape
    /// Ctrl-C as a byte (0x03): only seen when the terminal does not turn it into SIGINT.
    case interrupt
    /// Any other single byte: a letter, a digit, a control key, one byte of a UTF-8 character.
    case byte(UInt8)
    /// Any other escape sequence: arrows, function keys, Alt+key, answers to terminal queries.
    case sequence
}
