/// Whether the terminal really has an alternate screen, asked of the terminal itself.
///
/// GNU screen with its default `altscreen off` ignores `ESC[?1049h`: a private screen is then drawn on
/// the main screen, and screen's own clear (`ESC[2J`) scrolls it into screen's scrollback, where
/// `hardcopy -h` and copy mode find every revealed account. Neither `STY` nor `~/.screenrc` says which
/// setting is in force (it can be changed with `C-a :altscreen` at any time, and `screen -Q` cannot ask
/// it), so the terminal is asked: the cursor's position (DSR 6), then the alternate screen entered, the
/// cursor moved, the alternate screen left, the position again, twice with two different moves. An
/// alternate screen that works puts the cursor back where it was (1049 saves and restores it) both
/// times; one that is ignored leaves it where it was moved. The cursor is put back either way.
public enum AlternateScreenProbe {
    public enum Verdict: Equatable, Sendable {
        /// Both moves were undone by leaving the alternate screen.
        case works
        /// Both moves stayed: the alternate screen sequence was ignored.
        case ignored
        /// No clear answer (no answer in time, in the background, not a terminal).
        case unknown
    }

    /// Why nothing is revealed under GNU screen without a working alternate screen (reveal, the ui's `v`):
    /// `confirmed` when the probe saw it ignored, else it could not be shown to work.
    public static func problem(confirmed: Bool) -> String {
        confirmed ? msg("GNU screen has its alternate screen off (altscreen off), so they would stay in screen's scrollback")
            : msg("GNU screen did not show that its alternate screen is on, so they would stay in screen's scrollback")
    }

    /// The fix, as a hint.
    public static var fix: String { msg("turn it on with 'altscreen on' in ~/.screenrc (or now: Ctrl-A :altscreen on), then try again") }

    /// The probe's bytes: position, (enter, home, leave, position), (enter, row 2 column 2, leave, position).
    static let question = Array("\u{1B}[6n\u{1B}[?1049h\u{1B}[H\u{1B}[?1049l\u{1B}[6n\u{1B}[?1049h\u{1B}[2;2H\u{1B}[?1049l\u{1B}[6n".utf8)
    /// How long to wait for the three answers (screen answers at once; a remote session may take longer).
    static let answerTimeout = 1.0

    /// Whether GNU screen (`STY` set) keeps an alternate screen that nothing leaves into its history:
    /// nil outside GNU screen, else the verdict of the probe on the controlling terminal.
    public static func underGNUScreen(environment: [String: String]) -> Verdict? {
        guard let sty = environment["STY"], !sty.isEmpty else { return nil }
        guard let fd = TerminalIO.openControllingTerminal() else { return .unknown }
        defer { TerminalIO.close(fd) }
        return run(terminal: fd)
    }

    /// Asks the terminal at `fd` (read and written) and reads the answers, with key-at-a-time input for
    /// the time of the question; the settings are put back after it. Keys typed meanwhile are dropped.
    public static func run(terminal fd: Int32) -> Verdict {
        guard TerminalIO.isInForeground(fd), let saved = TerminalIO.attributes(fd) else { return .unknown }
        TerminalIO.setAttributes(fd, TerminalIO.keyAtATime(from: saved), discardingInput: false)
        defer { TerminalIO.setAttributes(fd, saved, discardingInput: false) }
        guard TerminalIO.writeAll(fd, question) else { return .unknown }
        var seen: [UInt8] = []
        var answers: [(row: Int, column: Int)] = []
        let deadline = TerminalIO.secondsSinceBoot() + answerTimeout
        while answers.count < 3 {
            let left = deadline - TerminalIO.secondsSinceBoot()
            guard left > 0, TerminalIO.poll([fd], milliseconds: Int32(left * 1000) + 1)[0],
                  case let .bytes(bytes) = TerminalIO.read(fd) else { break }
            seen += bytes
            answers = cursorPositions(in: seen)
        }
        let verdict = judge(answers)
        if verdict != .works, let start = answers.first {   // the cursor was moved on the main screen: put it back
            TerminalIO.writeAll(fd, Array("\u{1B}[\(start.row);\(start.column)H".utf8))
        }
        return verdict
    }

    /// What three answers mean (see the type's comment).
    static func judge(_ answers: [(row: Int, column: Int)]) -> Verdict {
        guard answers.count >= 3 else { return .unknown }
        let (start, first, second) = (answers[0], answers[1], answers[2])
        if first.row == start.row && first.column == start.column && second.row == start.row && second.column == start.column {
            return .works
        }
        if first.row == 1 && first.column == 1 && second.row == 2 && second.column == 2 { return .ignored }
        return .unknown
    }

    /// Every cursor position report (`ESC [ row ; column R`) in `bytes`, in order.
    static func cursorPositions(in bytes: [UInt8]) -> [(row: Int, column: Int)] {
        var found: [(row: Int, column: Int)] = []
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") else { i += 1; continue }
            var j = i + 2
            var numbers = [0]
            var digits = 0
            while j < bytes.count {
                let b = bytes[j]
                if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                    numbers[numbers.count - 1] = min(99_999, numbers[numbers.count - 1] * 10 + Int(b - UInt8(ascii: "0")))
                    digits += 1
                } else if b == UInt8(ascii: ";") {
                    numbers.append(0)
                } else {
                    break
                }
                j += 1
            }
            if j < bytes.count, bytes[j] == UInt8(ascii: "R"), numbers.count == 2, digits >= 2 {
                found.append((numbers[0], numbers[1]))
                i = j + 1
            } else {
                i += 1
            }
        }
        return found
    }
}
