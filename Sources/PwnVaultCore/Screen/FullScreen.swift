/// What a full-screen interface shows and how it answers keys; `FullScreen` runs it on the private
/// screen and keeps the protections (blanking, stops, signals, idle lock) to itself.
public protocol FullScreenApp: AnyObject {
    /// The rows of the screen at this size, as typed spans (see `CellRenderer`).
    func rows(columns: Int, rows: Int) -> [[CellRenderer.Span]]
    /// A key. `.quit` ends the run. Thrown errors end it too, after the terminal is put back.
    func handle(_ key: UIKey, screen: FullScreen) throws -> FullScreen.Answer
    /// When the app wants `tick()` called at the latest (`TerminalClock` time), e.g. to hide something
    /// revealed; nil when only keys, signals and `wake` matter.
    var nextTick: Double? { get }
    /// Called before the loop starts with what wakes it from another thread (background work posting an
    /// event); the screen then calls `tick()`. Calls after the run ended do nothing.
    func attach(_ wake: ScreenWake)
    /// Takes what was posted and what is due; true when the screen should be drawn again.
    func tick() -> Bool
    /// Called when the screen hides (focus lost, idle lock, Ctrl-Z): forget anything revealed.
    func hide()
    /// A key while locked after idling: true when it unlocks (the default: any key does).
    func unlock(_ key: UIKey) -> Bool
    /// The one line shown while locked; nil for `FullScreen.lockedLine`.
    var lockedLine: String? { get }
}

extension FullScreenApp {
    public func attach(_ wake: ScreenWake) {}
    public func unlock(_ key: UIKey) -> Bool { true }
    public var lockedLine: String? { nil }
}

/// Runs a `FullScreenApp` on the private screen: the alternate screen (nothing reaches the
/// scrollback), cursor hidden, focus reporting and SGR mouse reporting on, keys read one at a time
/// without echo (ISIG kept), and drawing by cell differences (`CellRenderer`).
///
/// - Focus out (`ESC[O`) replaces the whole screen, in one write, by `hiddenLine`; focus in or a key
///   draws it again (that key does nothing else).
/// - Idle for `idleTimeout`: `lockedLine` until a key.
/// - Ctrl-Z: cleared, private screen left, settings restored, stopped; `fg` draws again.
/// - SIGWINCH draws at the new size; below `minimumSize` one line says so.
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT end the run as `.interrupted`; `q` (through the app) as `.userQuit`.
/// On every way out (a thrown error included) the screen is cleared and left, focus and mouse
/// reporting are off, the cursor shown and the settings found at the start restored (TCSAFLUSH).
public final class FullScreen {
    public enum Answer: Equatable, Sendable { case stay, quit }
    public enum EndReason: Equatable, Sendable { case userQuit, interrupted(signal: Int32) }

    public static var hiddenLine: String { msg("hidden: focus lost. Focus this window or press a key to show it.") }
    public static func lockedLine(minutes: Double) -> String {
        minutes >= 1 ? msg("locked after {1} min idle. Press a key to show it.", Int(minutes))
            : msg("locked after {1} s idle. Press a key to show it.", Int(minutes * 60))
    }
    public static let minimumSize = (columns: 40, rows: 10)
    static let mouseOn = Array("\u{1B}[?1000h\u{1B}[?1006h".utf8)
    static let mouseOff = Array("\u{1B}[?1006l\u{1B}[?1000l".utf8)

    let output: Int32
    let input: Int32
    private var ownsInput = false
    private var terminal: PrivateScreenTerminal?
    private var renderer: CellRenderer
    private var blanked = false
    private var locked = false
    private var lastActivity = 0.0
    public let idleTimeout: Double
    public let mouse: Bool

    /// On the controlling terminal (`/dev/tty`) for input, stdout for drawing; nil without one.
    public static func onControllingTerminal(colors: Bool, idleTimeout: Double, mouse: Bool = true) -> FullScreen? {
        guard let input = TerminalIO.openControllingTerminal() else { return nil }
        let screen = FullScreen(output: StandardStream.outputDescriptor, input: input, colors: colors, idleTimeout: idleTimeout, mouse: mouse)
        screen.ownsInput = true
        return screen
    }

    public init(output: Int32, input: Int32, colors: Bool, idleTimeout: Double, mouse: Bool = true) {
        self.output = output; self.input = input
        renderer = CellRenderer(colors: colors)
        self.idleTimeout = idleTimeout
        self.mouse = mouse
    }

    deinit { if ownsInput { TerminalIO.close(input) } }

    /// Whether both ends are a terminal (checked before anything is sent).
    public var isTerminal: Bool { TerminalIO.isTerminal(output) && TerminalIO.isTerminal(input) }

    /// The size drawn for.
    public var size: (columns: Int, rows: Int) {
        TerminalIO.windowSize(output) ?? TerminalIO.windowSize(input) ?? PrivateScreenTerminal.fallbackSize
    }

    public func run(_ app: FullScreenApp) throws -> EndReason {
        guard isTerminal, let saved = TerminalIO.attributes(input) else { throw ScreenError.notATerminal }
        guard let signals = SignalPipe(signals: PrivateScreen.watchedSignals) else { throw ScreenError.noSignalPipe }
        terminal = PrivateScreenTerminal(output: output, input: input, saved: saved)
        let wake = ScreenWake(signals)
        app.attach(wake)
        defer {
            wake.disconnect()
            leave()
            signals.restore()
            terminal = nil
        }
        lastActivity = now
        if enter() {
            TerminalIO.writeAll(output, PrivateScreenTerminal.focusQuestion)   // does it report focus? (`focusReporting`)
            needsDraw = true
        }
        var keys = UIKeyDecoder()
        var escapeSince: Double?
        var drawWanted: Double?
        while true {
            var wait = 1.0
            if let due = app.nextTick { wait = max(0, min(wait, due - now)) }
            if let since = escapeSince { wait = max(0, min(wait, since + KeyReader.escapeDelay - now)) }
            if !locked, idleTimeout > 0 { wait = max(0, min(wait, lastActivity + idleTimeout - now)) }
            // A frame is due: look (without waiting) for what came meanwhile first.
            if needsDraw && escapeSince == nil { wait = 0 }
            let entered = terminal?.isEntered == true
            let ready = TerminalIO.poll(entered ? [signals.readEnd, input] : [signals.readEnd], milliseconds: Int32(wait * 1000) + 1)
            if ready[0] {
                for signo in signals.takeSignals() {
                    switch signo {
                    case Signal.terminalStop:
                        app.hide()
                        leave()
                        TerminalIO.stopProcess()
                        signals.reinstall(Signal.terminalStop)
                        keys = UIKeyDecoder(); escapeSince = nil
                        blanked = false; lastActivity = now
                        if enter() { needsDraw = true }
                    case Signal.continue:
                        if terminal?.isEntered == true { terminal?.reapplyInputMode(); renderer.invalidate(); needsDraw = true }
                        else if enter() { needsDraw = true }
                    case Signal.windowChange:
                        renderer.invalidate(); needsDraw = true
                    case Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit:
                        return .interrupted(signal: signo)
                    default: break
                    }
                }
            }
            if ready.count > 1, ready[1], terminal?.isEntered == true {
                switch TerminalIO.read(input) {
                case let .bytes(bytes):
                    escapeSince = nil
                    let events = keys.feed(bytes)
                    if keys.isWaitingAfterEscape { escapeSince = now }
                    if let end = try handle(events, app) { return end }
                case .nothing: break
                case .closed: return .interrupted(signal: Signal.hangUp)
                }
            } else if let since = escapeSince, now - since >= KeyReader.escapeDelay {
                escapeSince = nil
                if let end = try handle(keys.flush(), app) { return end }
            }
            if app.tick() { needsDraw = true }
            if !locked, !blanked, idleTimeout > 0, now - lastActivity >= idleTimeout {
                locked = true
                app.hide()
                needsDraw = true
            }
            // Draw only once nothing is waiting: a focus-out that came while a key was handled (the key
            // derivation behind `v` takes a while) is read before any frame, so nothing unmasked is
            // written after it. Input that never stops (a held key) delays the frame by at most
            // `drawDelayLimit`, after all that was read has been handled.
            if needsDraw {
                let since = drawWanted ?? now
                drawWanted = since
                let waiting = ready.contains(true) || escapeSince != nil
                if !waiting || now - since >= FullScreen.drawDelayLimit {
                    needsDraw = false
                    drawWanted = nil
                    draw(app)
                }
            }
        }
    }

    /// How long a constant stream of input may hold a due frame back.
    static let drawDelayLimit = 0.2
    /// A frame is due: drawn once what waits on the terminal has been read (see `run`).
    private var needsDraw = false
    /// What the terminal said about focus since the screen opened.
    private var focus = FocusTracker()

    /// Whether this terminal has shown that it reports focus changes (a focus report, or its answer to
    /// the question asked when the screen opened). Where it has not, the screen cannot hide on focus
    /// loss, and what the app reveals should be said and kept short (as `reveal` does).
    public var focusReporting: FocusReporting { focus.reporting }

    private var now: Double { TerminalIO.secondsSinceBoot() }

    private func handle(_ events: [UIKey], _ app: FullScreenApp) throws -> EndReason? {
        for key in events {
            switch key {
            case .focusOut:
                _ = focus.take(.focusOut)
                if !blanked { blanked = true; app.hide(); needsDraw = true }
                continue
            case .focusIn:
                _ = focus.take(.focusIn)
                if blanked { blanked = false; lastActivity = now; needsDraw = true }
                continue
            case let .modeReport(mode, setting):
                _ = focus.take(.modeReport(mode: mode, setting: setting))
                continue
            case .deviceAttributes:
                _ = focus.take(.deviceAttributes)
                continue
            case .interrupt:
                return .interrupted(signal: Signal.interrupt)
            case .other:
                continue
            default:
                break
            }
            lastActivity = now
            if locked {   // the app decides what unlocks (a key, or the passphrase)
                if app.unlock(key) { locked = false; blanked = false }
                needsDraw = true
                continue
            }
            if blanked {   // someone is here: show again, and do nothing else with that key
                blanked = false
                needsDraw = true
                continue
            }
            if try app.handle(key, screen: self) == .quit { return .userQuit }
            needsDraw = true
        }
        return nil
    }

    /// Draws the app, the neutral line, the locked line or the too-small notice.
    public func draw(_ app: FullScreenApp) {
        guard terminal?.isEntered == true else { return }
        let (columns, rows) = size
        if blanked || locked {
            // The whole screen at once: clear and the one line in a single write.
            let line = blanked ? FullScreen.hiddenLine : app.lockedLine ?? FullScreen.lockedLine(minutes: idleTimeout / 60)
            renderer.invalidate()
            TerminalIO.writeAll(output, PrivateScreenTerminal.clearSequence + Array(TerminalCells.truncate(line, to: columns).utf8))
            return
        }
        let lines: [[CellRenderer.Span]]
        if columns < FullScreen.minimumSize.columns || rows < FullScreen.minimumSize.rows {
            // Short lines: the notice itself must fit where the screen does not.
            lines = [msg("too small:"), "\(columns)x\(rows)", msg("needs"), "\(FullScreen.minimumSize.columns)x\(FullScreen.minimumSize.rows)"]
                .map { [CellRenderer.Span($0)] }
        } else {
            lines = app.rows(columns: columns, rows: rows)
        }
        let bytes = renderer.frame(rows: lines, columns: columns, rows: rows)
        if !bytes.isEmpty { TerminalIO.writeAll(output, bytes) }
    }

    private func enter() -> Bool {
        guard var t = terminal, t.enter() else { return false }
        terminal = t
        if mouse { TerminalIO.writeAll(output, FullScreen.mouseOn) }
        renderer.invalidate()
        return true
    }

    private func leave() {
        guard var t = terminal else { return }
        if t.isEntered, mouse { TerminalIO.writeAll(output, FullScreen.mouseOff) }
        t.leave()
        terminal = t
        renderer.invalidate()
    }
}

/// The clock the screen's timeouts use (it counts time stopped and time the machine slept), for the
/// interface's own timeouts (how long something stays revealed).
public enum TerminalClock {
    public static var now: Double { TerminalIO.secondsSinceBoot() }
}

/// Wakes a running `FullScreen` from another thread (a byte in its signal pipe, which its loop polls):
/// background work posts its events, then calls `wake()`. After the run ended it does nothing, so a
/// late call never writes into a descriptor number reused since.
public final class ScreenWake: Sendable {
    /// The signal pipe's write end while the run lasts (the poke is made under the lock, so a
    /// `disconnect` never races a write into a reused descriptor).
    private let fd: Locked<Int32?>

    init(_ signals: SignalPipe) { fd = Locked(signals.writeDescriptor) }

    /// A wake that wakes nothing (tests drive the app without a screen).
    public init() { fd = Locked(nil) }

    public func wake() {
        fd.withLock { fd in if let fd { TerminalIO.poke(fd, SignalPipe.wakeByte) } }
    }

    func disconnect() {
        fd.withLock { $0 = nil }
    }
}
