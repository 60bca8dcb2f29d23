import FoundationEssentials
/// A screen for showing accounts unmasked, and nothing else: nothing shown there reaches the
/// scrollback, it goes blank when the terminal loses focus, and it disappears on a timeout, a key,
/// a signal or a stop, leaving the terminal exactly as it was.
///
/// While `run` runs:
/// - the alternate screen (`ESC[?1049h`) holds the lines, the cursor is hidden, focus reporting
///   (`ESC[?1004h`) is on, and input is read key by key without echo (ISIG stays on);
/// - focus out (`ESC[O`) blanks the screen at once to `hiddenLine`; focus in (`ESC[I`) or a key press
///   other than the quitting keys draws it again (and does nothing else). After `listen()` (see PrivateScreenPrompt.swift)
///   focus is followed from the passphrase prompt on, and a focus-out after its Enter makes the first
///   frame `hiddenLine`. A terminal that starts "unfocused" (tmux with no client attached answers
///   `ESC[?1004h` with `ESC[O`) is blank until focused or a key is pressed: never broken;
/// - `q`, `Q` and Esc end it (`.userQuit`); Ctrl-C ends it as `.interrupted(SIGINT)`, whether it
///   comes as the signal or, with ISIG off, as the byte. With a `TextPager` (`run(timeout:pager:)`),
///   the other keys scroll and search it while it is shown; while a search is typed `q` and `Q` are
///   letters of it, but Esc and Ctrl-C still end the screen. Keys never move the timeout;
/// - SIGINT, SIGTERM, SIGHUP and SIGQUIT end it as `.interrupted(signal)`, after the same cleanup;
/// - Ctrl-Z (SIGTSTP): cleared, alternate screen left, focus reporting off, settings restored, then
///   the process stops for real, so the shell's prompt shows nothing revealed. On `fg` it comes back
///   and draws again (within the timeout; the caller is asked nothing), unless the timeout passed
///   while it was stopped: then it ends with `.timeout` without drawing. Continued in the background
///   (`bg`) it stays hidden until brought to the foreground;
/// - SIGWINCH draws again at the new size;
/// - the timeout runs on a clock that counts time stopped and time the machine slept.
///
/// On every way out: the alternate screen is cleared and left, focus reporting is off, the cursor is
/// shown, and the terminal settings found at the start are restored with TCSAFLUSH (keys typed on the
/// private screen never reach the shell).
///
/// Signals end `run`, they do not end the process: the caller wipes what it holds and exits with
/// `ExitStatus.interrupted` (130) for `.interrupted`. One private screen at a time per process.
public final class PrivateScreen {
    /// Why `run` returned.
    public enum EndReason: Equatable, Sendable {
        /// The timeout passed (possibly while the process was stopped).
        case timeout
        /// `q`, `Q` or Esc.
        case userQuit
        /// SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal went away) or SIGQUIT (Ctrl-\).
        case interrupted(signal: Int32)
    }

    /// The timeout `pwnvault reveal` uses unless told otherwise: 30 seconds.
    public static let defaultTimeout: TimeInterval = 30
    /// The timeout where focus changes do not reach the screen, so it cannot hide on focus loss: 10 s.
    public static let unfocusableTimeout: TimeInterval = 10
    /// The one line shown while the screen is blanked. Says nothing about what is hidden.
    public static var hiddenLine: String { msg("hidden: focus lost. Focus this window or press a key to show it, q to close.") }
    /// The signals watched while the screen runs.
    static let watchedSignals: [Int32] = [Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit, Signal.terminalStop, Signal.continue, Signal.windowChange]

    let output: Int32
    let input: Int32
    /// Set by `listen()`: the terminal (with the settings found then) and the signals, kept until `run`
    /// ends or `close()`.
    var listening: (terminal: PrivateScreenTerminal, signals: SignalPipe)?
    /// What the terminal said about focus since `listen()`.
    var focus = FocusTracker()
    /// Escape sequences that began while listening and have not ended yet.
    var keys = KeyReader()

    /// A private screen drawing on stdout and reading keys from the controlling terminal (`/dev/tty`),
    /// whatever stdin is; nil when there is no controlling terminal. The screen closes that descriptor
    /// when it goes away.
    public static func onControllingTerminal() -> PrivateScreen? {
        guard let input = TerminalIO.openControllingTerminal() else { return nil }
        let screen = PrivateScreen(output: StandardStream.outputDescriptor, input: input)
        screen.ownsInput = true
        return screen
    }

    /// Whether `input` was opened by the screen itself (and is closed with it).
    private var ownsInput = false

    deinit {
        close()
        if ownsInput { TerminalIO.close(input) }
    }

    /// A private screen drawing on `output` and reading keys from `input`; both must be the same terminal.
    public init(output: Int32 = StandardStream.outputDescriptor, input: Int32 = StandardStream.inputDescriptor) {
        self.output = output
        self.input = input
    }

    /// Whether the terminal has shown that it reports focus changes (a focus report came, or it said
    /// mode 1004 is set), that it does not, or neither, so far. See `listen()` and `settle()`.
    public var focusReporting: FocusReporting { focus.reporting }

    /// Shows `render(columns, rows)`'s lines until the timeout, a quitting key or a signal, and returns
    /// why it ended. `render` is called again on every redraw (focus in, a resize, `fg`); its lines
    /// should already be what may be shown, and are made safe for the terminal again here (one line
    /// each, escape sequences removed, cut to the width; no colors).
    ///
    /// After `listen()`: what came meanwhile is taken first (a signal ends it before anything is drawn;
    /// a focus-out after the passphrase's Enter makes the first frame the neutral line).
    ///
    /// Throws `ScreenError.notATerminal` when `input` or `output` is not a terminal, before touching it.
    public func run(timeout: TimeInterval = PrivateScreen.defaultTimeout,
                    render: (_ columns: Int, _ rows: Int) -> [String]) throws -> EndReason {
        var none: TextPager?
        return try run(timeout: timeout, pager: &none, render: render)
    }

    /// Shows `pager`'s view until the timeout, a quitting key or a signal, as `run(timeout:render:)`
    /// does, and lets the keys scroll and search it (see `TextPager`). `pager` is left as the person
    /// left it. The timeout stays what it was: scrolling does not keep the screen open longer.
    public func run(timeout: TimeInterval = PrivateScreen.defaultTimeout, pager: inout TextPager) throws -> EndReason {
        var held: TextPager? = pager
        defer { if let held { pager = held } }
        return try run(timeout: timeout, pager: &held) { _, _ in [] }
    }

    private func run(timeout: TimeInterval, pager: inout TextPager?,
                     render: (_ columns: Int, _ rows: Int) -> [String]) throws -> EndReason {
        let terminal: PrivateScreenTerminal
        let signals: SignalPipe
        if let listening {
            (terminal, signals) = listening
            self.listening = nil
        } else {
            guard TerminalIO.isTerminal(output), let saved = TerminalIO.attributes(input) else {
                throw ScreenError.notATerminal
            }
            guard let pipe = SignalPipe(signals: PrivateScreen.watchedSignals) else { throw ScreenError.noSignalPipe }
            terminal = PrivateScreenTerminal(output: output, input: input, saved: saved)
            signals = pipe
        }
        let deadline = TerminalIO.secondsSinceBoot() + max(0, timeout)
        return withoutActuallyEscaping(render) { render in
            var session = Session(terminal: terminal, signals: signals, render: render, deadline: deadline,
                                  keys: keys, blanked: !focus.focused)
            session.pager = pager
            let reason = session.run()
            pager = session.pager
            session.terminal.leave()
            signals.restore()
            return reason
        }
    }

    /// Stops listening without showing anything (the passphrase was wrong, the vault would not open):
    /// focus reporting off, the settings found at `listen()` back. Idempotent; `run` needs none.
    public func close() {
        guard let (listened, signals) = listening else { return }
        listening = nil
        var terminal = listened
        terminal.leave()
        signals.restore()
    }
}

/// The state of one `PrivateScreen.run`: the loop and what each event does.
private struct Session {
    var terminal: PrivateScreenTerminal
    let signals: SignalPipe
    let render: (Int, Int) -> [String]
    let deadline: Double
    /// Blank (focus lost) rather than showing the lines.
    var blanked = false
    var keys = KeyReader()
    /// When the waiting ESC arrived, while one waits.
    var escapeSince: Double?
    /// What keys scroll and search, when the screen shows a pager rather than `render`'s lines.
    var pager: TextPager?
    /// The bytes of a UTF-8 character typed into the pager's search, until it is whole.
    var utf8: [UInt8] = []

    init(terminal: PrivateScreenTerminal, signals: SignalPipe, render: @escaping (Int, Int) -> [String], deadline: Double,
         keys: KeyReader, blanked: Bool) {
        self.terminal = terminal; self.signals = signals; self.render = render; self.deadline = deadline
        self.keys = keys; self.blanked = blanked
    }

    private var now: Double { TerminalIO.secondsSinceBoot() }

    mutating func run() -> PrivateScreen.EndReason {
        if let end = takeWhatCameMeanwhile() { return end }
        if terminal.enter() { draw() }
        while true {
            let left = deadline - now
            if left <= 0 { return .timeout }
            // Wake at least once a second: poll's clock stops while the machine sleeps, ours does not.
            var wait = min(left, 1.0)
            if let since = escapeSince { wait = max(0, min(wait, since + KeyReader.escapeDelay - now)) }
            // Read keys only while in the foreground: a background read would stop us with SIGTTIN.
            let watched = terminal.isEntered ? [signals.readEnd, terminal.input] : [signals.readEnd]
            let ready = TerminalIO.poll(watched, milliseconds: Int32(wait * 1000) + 1)

            if ready[0] {
                for signo in signals.takeSignals() {
                    if let end = handle(signal: signo) { return end }
                }
            }
            if ready.count > 1 && ready[1] && terminal.isEntered {
                switch TerminalIO.read(terminal.input) {
                case let .bytes(bytes):
                    escapeSince = nil
                    let events = keys.feed(bytes)
                    if keys.isWaitingAfterEscape { escapeSince = now }
                    if let end = handle(keys: events) { return end }
                case .nothing:
                    break
                case .closed:
                    return .interrupted(signal: Signal.hangUp)   // the terminal hung up
                }
            } else if let since = escapeSince, now - since >= KeyReader.escapeDelay {
                escapeSince = nil
                if let end = handle(keys: keys.flush()) { return end }
            }
        }
    }

    /// Signals, focus reports and keys that arrived while the passphrase was checked, before anything
    /// is drawn: Ctrl-C then ends the run at once, and a focus-out keeps the first frame blank.
    private mutating func takeWhatCameMeanwhile() -> PrivateScreen.EndReason? {
        guard terminal.isListening else { return nil }
        if TerminalIO.poll([signals.readEnd], milliseconds: 0)[0] {
            for signo in signals.takeSignals() {
                if let end = handle(signal: signo) { return end }
            }
        }
        while terminal.isListening, TerminalIO.poll([terminal.input], milliseconds: 0)[0] {
            guard case let .bytes(bytes) = TerminalIO.read(terminal.input) else { break }
            if let end = handle(keys: keys.feed(bytes)) { return end }
        }
        if keys.isWaitingAfterEscape { escapeSince = now }
        return nil
    }

    private mutating func handle(signal signo: Int32) -> PrivateScreen.EndReason? {
        switch signo {
        case Signal.terminalStop:
            terminal.leave()
            TerminalIO.stopProcess()
            signals.reinstall(Signal.terminalStop)
            // Continued. The stop may have lasted longer than the timeout: then end without drawing.
            if now >= deadline { return .timeout }
            blanked = false   // Ctrl-Z came from the keyboard, and `fg` too: the person is here
            keys = KeyReader(); escapeSince = nil
            if terminal.enter() { draw() }
        case Signal.continue:
            // After our own stop this follows the re-entry above; after SIGSTOP it is the only news.
            if terminal.isEntered {
                terminal.reapplyInputMode()
                draw()
            } else if now < deadline, terminal.enter() {
                draw()
            }
        case Signal.windowChange:
            if terminal.isEntered { draw() }
        case Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit:
            return .interrupted(signal: signo)
        default:
            break   // a wake byte
        }
        return nil
    }

    private mutating func handle(keys events: [KeyEvent]) -> PrivateScreen.EndReason? {
        for event in events {
            switch event {
            case let .byte(b) where (b == UInt8(ascii: "q") || b == UInt8(ascii: "Q")) && !blanked && pager?.isTyping == true:
                page(byte: b)   // a letter of the search being typed
            case .escape, .byte(UInt8(ascii: "q")), .byte(UInt8(ascii: "Q")):
                return .userQuit
            case .interrupt:
                return .interrupted(signal: Signal.interrupt)
            case .focusOut:
                if !blanked { blanked = true; draw() }
            case .focusIn:
                if blanked { blanked = false; draw() }
            case let .byte(b):
                if blanked { blanked = false; draw() }   // a key reached this terminal: someone is here (and that is all it does)
                else { page(byte: b) }
            case let .key(key):
                // Arrows are not proof that someone is here: they move the text only while it is shown.
                guard !blanked, pager != nil else { break }
                let size = terminal.size
                if pager?.take(key, columns: size.columns, rows: size.rows) == true { draw() }
            case .sequence, .modeReport, .deviceAttributes:
                break   // answers to queries: not proof of anything
            }
        }
        return nil
    }

    /// One byte of a key for the pager, as the key it is (UTF-8 put together for the search).
    private mutating func page(byte b: UInt8) {
        guard pager != nil else { return }
        let key: UIKey
        switch b {
        case 0x0D, 0x0A: key = .enter
        case 0x7F, 0x08: key = .backspace
        case 0x09: key = .tab
        case 0x00..<0x20: key = .control(b)
        case 0x20..<0x7F: key = .char(Character(Unicode.Scalar(b)))
        default:
            if b >= 0xC0 { utf8 = [] }
            utf8.append(b)
            let need = utf8[0] >= 0xF0 ? 4 : utf8[0] >= 0xE0 ? 3 : 2
            guard utf8.count >= need || utf8[0] < 0xC0 else { return }
            let text = String(decoding: utf8, as: UTF8.self)
            utf8 = []
            guard let c = text.first, c != "\u{FFFD}" else { return }
            key = .char(c)
        }
        let size = terminal.size
        if pager?.take(key, columns: size.columns, rows: size.rows) == true { draw() }
    }

    private func draw() {
        guard terminal.isEntered else { return }
        if blanked {
            terminal.draw([PrivateScreen.hiddenLine])
        } else {
            let size = terminal.size
            terminal.draw(pager?.view(columns: size.columns, rows: size.rows) ?? render(size.columns, size.rows))
        }
    }
}
