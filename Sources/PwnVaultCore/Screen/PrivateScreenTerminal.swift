/// The terminal side of `PrivateScreen`: the exact bytes that enter and leave it, drawing, and putting
/// the terminal back. Knows nothing of signals, keys or timeouts.
struct PrivateScreenTerminal {
    /// Alternate screen on (nothing drawn there reaches the scrollback), cursor hidden.
    static let alternateScreenSequence = Array("\u{1B}[?1049h\u{1B}[?25l".utf8)
    /// Focus reporting on.
    static let focusReportingOn = Array("\u{1B}[?1004h".utf8)
    /// Asked once, right after focus reporting is turned on before the passphrase: is mode 1004 set
    /// (DECRQM; xterm, kitty, alacritty and VTE answer, tmux 3.3 does not), then the device attributes,
    /// which every terminal answers after everything before it: no mode report before that answer
    /// means none is coming.
    static let focusQuestion = Array("\u{1B}[?1004$p\u{1B}[c".utf8)
    /// Focus reporting off, when only listening (the alternate screen was never entered).
    static let focusReportingOff = Array("\u{1B}[?1004l".utf8)
    /// The alternate screen and focus reporting together, when the screen opens without listening first.
    static let enterSequence = alternateScreenSequence + focusReportingOn
    /// Home and erase the visible screen (of the alternate screen, while it is on).
    static let clearSequence = Array("\u{1B}[H\u{1B}[2J".utf8)
    /// Clear the alternate screen first, so no terminal that keeps it keeps anything; then focus
    /// reporting off, cursor shown, main screen back (with its cursor position).
    static let leaveSequence = Array("\u{1B}[H\u{1B}[2J\u{1B}[?1004l\u{1B}[?25h\u{1B}[?1049l".utf8)
    /// Primary Device Attributes: every terminal answers it, after everything written before it.
    static let deviceAttributesQuery = Array("\u{1B}[c".utf8)
    /// How long to wait for that answer before giving up on it.
    static let deviceAttributesTimeout = 0.25
    /// The size drawn for when the terminal does not say.
    static let fallbackSize = (columns: 80, rows: 24)

    let output: Int32
    let input: Int32
    /// The settings found at the start, put back on every exit path.
    let saved: TerminalSettings
    /// The alternate screen is on.
    private(set) var isEntered = false
    /// Key-at-a-time input without echo and focus reporting on (before and while entered).
    private(set) var isListening = false
    /// While listening or entered: a fatal signal (a fault, an abort) puts the terminal back first.
    private var fatalSignals: FatalSignals.Armed?
    /// What a fatal signal writes after the settings: focus reporting off, and, once entered, the cursor
    /// shown and the main screen back (no clearing: the handler must be short).
    static let fatalLeaveSequence = Array("\u{1B}[?1004l\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// Arms (again) the fatal-signal restore for the current state.
    private mutating func armFatalSignals() {
        if let armed = fatalSignals { FatalSignals.disarm(armed) }
        fatalSignals = FatalSignals.arm(input: input, output: output, settings: saved,
                                        bytes: isEntered ? PrivateScreenTerminal.fatalLeaveSequence : PrivateScreenTerminal.focusReportingOff)
    }

    init(output: Int32, input: Int32, saved: TerminalSettings) {
        self.output = output; self.input = input; self.saved = saved
    }

    /// Key-at-a-time input without echo (ISIG kept) and focus reporting on, on the main screen: for the
    /// passphrase prompt and the key derivation before the private screen opens, so that focus changes
    /// in that time are known. `ask` adds `focusQuestion`. Refuses (false) in the background.
    mutating func listen(ask: Bool) -> Bool {
        guard TerminalIO.isInForeground(input) else { return false }
        if !isListening {
            TerminalIO.setAttributes(input, TerminalIO.keyAtATime(from: saved), discardingInput: false)
            isListening = true
            armFatalSignals()
            TerminalIO.writeAll(output, PrivateScreenTerminal.focusReportingOn + (ask ? PrivateScreenTerminal.focusQuestion : []))
        }
        return true
    }

    /// Key-at-a-time input, alternate screen, focus reporting (kept on when already listening: turning
    /// it on again would make tmux report its focus anew). Refuses (false) while another process group
    /// has the terminal: touching it from the background would stop us with SIGTTOU.
    mutating func enter() -> Bool {
        guard TerminalIO.isInForeground(input) else { return false }
        isEntered = true
        armFatalSignals()
        if isListening {
            TerminalIO.writeAll(output, PrivateScreenTerminal.alternateScreenSequence)
        } else {
            TerminalIO.setAttributes(input, TerminalIO.keyAtATime(from: saved), discardingInput: false)
            TerminalIO.writeAll(output, PrivateScreenTerminal.enterSequence)
            isListening = true
        }
        return true
    }

    /// Puts the key-at-a-time settings back after someone else (a shell during SIGSTOP) changed them.
    func reapplyInputMode() {
        TerminalIO.setAttributes(input, TerminalIO.keyAtATime(from: saved), discardingInput: false)
    }

    var size: (columns: Int, rows: Int) {
        TerminalIO.windowSize(output) ?? TerminalIO.windowSize(input) ?? PrivateScreenTerminal.fallbackSize
    }

    /// Replaces the screen with `lines`: each made safe for one line, cut to the width, and placed on
    /// its row by cursor addressing (no newlines, so output processing does not matter and the screen
    /// never scrolls); at most as many lines as there are rows.
    func draw(_ lines: [String]) {
        let (columns, rows) = size
        var bytes = PrivateScreenTerminal.clearSequence
        for (i, line) in lines.prefix(rows).enumerated() {
            if i > 0 { bytes += PrivateScreenTerminal.moveToRow(i + 1) }
            bytes += Array(TerminalCells.truncate(Sanitizer.singleLine(line), to: columns).utf8)
        }
        TerminalIO.writeAll(output, bytes)
    }

    /// `ESC [ row ; 1 H`: the cursor to the start of `row` (counted from 1).
    static func moveToRow(_ row: Int) -> [UInt8] { Array("\u{1B}[\(row);1H".utf8) }

    /// Clears and leaves the private screen (when entered), turns focus reporting off and puts the
    /// settings back.
    ///
    /// A focus report the terminal sent before it read "focus reporting off" would otherwise reach the
    /// shell as `^[[O`. So: ask for the device attributes after the leave sequence, read and discard
    /// input until the answer comes (the terminal has then processed everything before it), and restore
    /// with TCSAFLUSH, which also discards keys typed meanwhile.
    mutating func leave() {
        guard isEntered || isListening else { return }
        let sequence = isEntered ? PrivateScreenTerminal.leaveSequence : PrivateScreenTerminal.focusReportingOff
        isEntered = false
        isListening = false
        let written = TerminalIO.writeAll(output, sequence + PrivateScreenTerminal.deviceAttributesQuery)
        if written { discardInputUntilDeviceAttributes() }
        TerminalIO.setAttributes(input, saved, discardingInput: true)
        if let armed = fatalSignals { FatalSignals.disarm(armed) }
        fatalSignals = nil
    }

    private func discardInputUntilDeviceAttributes() {
        let deadline = TerminalIO.secondsSinceBoot() + PrivateScreenTerminal.deviceAttributesTimeout
        var seen: [UInt8] = []
        while true {
            let left = deadline - TerminalIO.secondsSinceBoot()
            guard left > 0 else { return }
            guard TerminalIO.poll([input], milliseconds: Int32(left * 1000) + 1)[0] else { continue }
            guard case let .bytes(bytes) = TerminalIO.read(input) else { return }
            seen += bytes
            if PrivateScreenTerminal.containsDeviceAttributesAnswer(seen) { return }
            if seen.count > 4096 { seen.removeFirst(seen.count - 64) }
        }
    }

    /// Whether `bytes` hold a DA1 answer: `ESC [ ?` digits and semicolons, then `c`.
    static func containsDeviceAttributesAnswer(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "["), bytes[i + 2] == UInt8(ascii: "?") {
                var j = i + 3
                while j < bytes.count, (bytes[j] >= UInt8(ascii: "0") && bytes[j] <= UInt8(ascii: "9")) || bytes[j] == UInt8(ascii: ";") {
                    j += 1
                }
                if j < bytes.count, bytes[j] == UInt8(ascii: "c") { return true }
            }
            i += 1
        }
        return false
    }
}
