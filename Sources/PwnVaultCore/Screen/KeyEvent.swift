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
    /// The terminal's answer to "is this mode set?" (DECRPM, `ESC [ ? mode ; setting $ y`): setting 0
    /// means the mode is not recognised, 1 set, 2 reset, 3 permanently set, 4 permanently reset.
    case modeReport(mode: Int, setting: Int)
    /// The answer to the Primary Device Attributes query (`ESC [ ? … c`): everything the terminal was
    /// sent before that query has been processed.
    case deviceAttributes
    /// A key that comes as an escape sequence and moves through text: an arrow, Home, End, PgUp or PgDn
    /// (never `.char` or the others). Not proof that a person is here (see `PrivateScreen`).
    case key(UIKey)
    /// Any other escape sequence: function keys, Alt+key, other answers to terminal queries.
    case sequence
}
