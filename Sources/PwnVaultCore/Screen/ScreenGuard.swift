import Dispatch
import FoundationEssentials
/// Keeps a long-running screen (a progress line on stderr, a paged list) honest about stops and
/// interruptions: what it drew is cleared and the terminal restored before the process stops or ends,
/// and drawn again when it continues.
///
/// The owner draws only through `draw { … }`, which runs its closure unless the screen is hidden, and
/// supplies `onHide` (clear what you showed, show the cursor if you hid it) and `onShow` (draw your
/// current state again). Both run on the guard's own thread, under the same lock as `draw`, so they
/// never overlap a drawing.
///
/// - SIGTSTP (Ctrl-Z): `onHide`, terminal settings found at installation restored, then the process
///   stops for real. On `fg`: the owner's settings put back, `onShow`. Continued in the background
///   (`bg`), the screen stays hidden until the process is in the foreground again and receives SIGCONT.
/// - SIGINT, SIGTERM, SIGHUP: `onHide` and settings restored, then, by `interrupts`:
///   `.terminate` ends the process with that signal; `.report` keeps it running, hidden for good, with
///   `interruption` set and `onInterrupt` called, so the owner can stop its work, keep what is finished
///   and exit with `ExitStatus.interrupted` (130). The signals then get their previous disposition
///   back: a second Ctrl-C acts at once (the terminal is already clean).
/// - SIGQUIT (Ctrl-\) always ends the process, after the same cleanup.
///
/// Focus: with `watchFocus` the guard turns focus reporting on and reads stdin key by key (echo off,
/// ISIG kept), so a focus-out hides like `hide()` and a focus-in shows again; keys typed meanwhile are
/// dropped (type-ahead is lost during such a run, the price of knowing when the window is hidden).
/// Without it the guard never reads the terminal; an owner that reads keys itself can pass focus
/// events on through `hide()` and `show()`.
///
/// Install one guard at a time; `uninstall()` before the owner prints its final output.
///
/// Unchecked Sendable: the guard is shared between its owner and its watcher thread; every mutable
/// member is read and written with `lock` held, the rest are `let`s set before the thread starts.
public final class ScreenGuard: @unchecked Sendable {
    /// What SIGINT, SIGTERM and SIGHUP do once the screen is cleaned up.
    public enum InterruptHandling: Sendable {
        /// End the process with the signal (default disposition, raised).
        case terminate
        /// Keep running; set `interruption` and call `onInterrupt`. For work worth saving (`check --all`).
        case report
    }

    static let watchedSignals: [Int32] = [Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit, Signal.terminalStop, Signal.continue]

    private let lock = Lock()
    private let terminal: Int32
    private let savedSettings: TerminalSettings?
    private let interrupts: InterruptHandling
    private let onHide: () -> Void
    private let onShow: () -> Void
    private let onInterrupt: ((Int32) -> Void)?
    private let signals: SignalPipe
    private let finished = DispatchSemaphore(value: 0)
    /// The terminal focus events are read from (`focusInput`), or nil: focus is not watched.
    private let focusInput: Int32?
    private var keys = KeyReader()
    static let focusReportingOn = Array("\u{1B}[?1004h".utf8)
    static let focusReportingOff = Array("\u{1B}[?1004l".utf8)

    // Guarded by `lock`.
    private var stopped = false
    /// The owner's terminal settings when it was stopped, put back when it continues.
    private var settingsAtStop: TerminalSettings?
    private var hiddenByOwner = false
    private var interruptedBy: Int32?
    private var installed = true

    private init(terminal: Int32, interrupts: InterruptHandling, signals: SignalPipe, focusInput: Int32?,
                 onHide: @escaping () -> Void, onShow: @escaping () -> Void, onInterrupt: ((Int32) -> Void)?) {
        self.terminal = terminal
        self.focusInput = focusInput
        self.savedSettings = TerminalIO.attributes(terminal)
        self.interrupts = interrupts
        self.signals = signals
        self.onHide = onHide; self.onShow = onShow; self.onInterrupt = onInterrupt
    }

    /// Starts guarding the screen on `terminal` (the descriptor the owner draws on, usually stderr;
    /// its settings are the ones restored). Throws `ScreenError.noSignalPipe` when out of descriptors.
    ///
    /// With `watchFocus` (and stdin the same terminal), focus reporting is turned on and stdin is read
    /// key by key without echo (ISIG kept): a focus-out hides the screen like `hide()`, a focus-in shows
    /// it again; other keys typed meanwhile are discarded. Focus reporting is off and the settings are
    /// back whenever the process stops, is interrupted, or the guard is uninstalled.
    public static func install(terminal: Int32 = StandardStream.errorDescriptor, interrupts: InterruptHandling,
                               watchFocus: Bool = false,
                               onHide: @escaping () -> Void, onShow: @escaping () -> Void,
                               onInterrupt: ((Int32) -> Void)? = nil) throws -> ScreenGuard {
        guard let signals = SignalPipe(signals: watchedSignals) else { throw ScreenError.noSignalPipe }
        let focusInput: Int32? = watchFocus && TerminalIO.isTerminal(StandardStream.inputDescriptor) && TerminalIO.isTerminal(terminal)
            && TerminalIO.isInForeground(terminal) ? StandardStream.inputDescriptor : nil
        let guardian = ScreenGuard(terminal: terminal, interrupts: interrupts, signals: signals, focusInput: focusInput,
                                   onHide: onHide, onShow: onShow, onInterrupt: onInterrupt)
        guardian.enterFocusMode()
        DetachedThread.start { guardian.watch() }
        return guardian
    }

    /// Runs `body` (which draws) unless the screen is hidden; returns whether it ran.
    @discardableResult
    public func draw(_ body: () -> Void) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard isVisible else { return false }
        body()
        return true
    }

    /// Whether drawing is allowed now (not stopped, not interrupted, not hidden by the owner).
    public var isShown: Bool {
        lock.lock(); defer { lock.unlock() }
        return isVisible
    }

    /// The signal that interrupted the work (`.report` only); nil while none has.
    public var interruption: Int32? {
        lock.lock(); defer { lock.unlock() }
        return interruptedBy
    }

    /// Hides the screen for the owner's own reason (its terminal lost focus): `onHide`, then no drawing.
    public func hide() {
        lock.lock(); defer { lock.unlock() }
        let wasVisible = isVisible
        hiddenByOwner = true
        if wasVisible { onHide() }
    }

    /// Ends `hide()`: `onShow`, unless the process is stopped or interrupted.
    public func show() {
        lock.lock(); defer { lock.unlock() }
        hiddenByOwner = false
        if isVisible { onShow() }
    }

    /// Stops guarding: the signals get their previous dispositions back (a signal that arrives from now
    /// on acts as it would have without the guard). Waits for the guard's thread to finish. Idempotent.
    public func uninstall() {
        lock.lock()
        let wasInstalled = installed
        installed = false
        lock.unlock()
        guard wasInstalled else { return }
        signals.wake()
        finished.wait()
        lock.lock()
        leaveFocusMode()
        lock.unlock()
        signals.restore()
    }

    deinit { uninstall() }

    // MARK: the guard's thread

    private var isVisible: Bool { installed && !stopped && !hiddenByOwner && interruptedBy == nil }

    private func watch() {
        defer { finished.signal() }
        while true {
            let watching = isWatchingFocus
            let ready = TerminalIO.poll(watching ? [signals.readEnd, focusInput!] : [signals.readEnd],
                                        milliseconds: keys.isWaitingAfterEscape ? 100 : -1)
            if watching { readFocusEvents(ready: ready[1]) }
            guard ready[0] else { continue }
            for signo in signals.takeSignals() {
                lock.lock()
                let stillInstalled = installed
                lock.unlock()
                guard stillInstalled else { return }
                handle(signo)
            }
        }
    }

    private func handle(_ signo: Int32) {
        switch signo {
        case Signal.terminalStop:
            lock.lock()
            if !stopped { settingsAtStop = TerminalIO.attributes(terminal) }
            hideAndRestore()
            stopped = true
            lock.unlock()
            TerminalIO.stopProcess()
            signals.reinstall(Signal.terminalStop)
            resumeIfInForeground()
        case Signal.continue:
            resumeIfInForeground()
        case Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.quit:
            lock.lock()
            hideAndRestore()
            if interrupts == .terminate || signo == Signal.quit { TerminalIO.dieOf(signo) }
            let first = interruptedBy == nil
            if first {
                interruptedBy = signo
                for s in [Signal.interrupt, Signal.terminate, Signal.hangUp] { signals.release(s) }
            }
            lock.unlock()
            if first { onInterrupt?(signo) }
        default:
            break   // the wake byte
        }
    }

    /// Calls `onHide` if the screen was showing, and puts back the settings found at installation
    /// (focus reporting off). Called with the lock held.
    private func hideAndRestore() {
        if isVisible { onHide() }
        leaveFocusMode()
        if let saved = savedSettings { TerminalIO.setAttributes(terminal, saved, discardingInput: false) }
    }

    // MARK: focus

    /// Whether focus events are being read: only while installed, running in the foreground and not interrupted.
    private var isWatchingFocus: Bool {
        lock.lock(); defer { lock.unlock() }
        return focusInput != nil && focusOn
    }

    private var focusOn = false

    /// Key-at-a-time input without echo (ISIG kept) and focus reporting on. Called at installation and
    /// after a stop, with the lock held (or before the thread starts).
    private func enterFocusMode() {
        guard let input = focusInput, !focusOn, interruptedBy == nil, let saved = TerminalIO.attributes(input) else { return }
        _ = TerminalIO.setAttributes(input, TerminalIO.keyAtATime(from: saved), discardingInput: false)
        _ = TerminalIO.writeAll(terminal, Self.focusReportingOn)
        focusOn = true
    }

    /// Focus reporting off (the caller restores the settings). Called with the lock held.
    private func leaveFocusMode() {
        guard focusOn else { return }
        _ = TerminalIO.writeAll(terminal, Self.focusReportingOff)
        focusOn = false
        if let input = focusInput, let saved = savedSettings, input != terminal {
            _ = TerminalIO.setAttributes(input, saved, discardingInput: false)
        }
    }

    private func readFocusEvents(ready: Bool) {
        guard let input = focusInput else { return }
        var events: [KeyEvent] = []
        if ready {
            switch TerminalIO.read(input) {
            case let .bytes(bytes): events = keys.feed(bytes)
            case .nothing: break
            case .closed:   // the terminal hung up: nothing more to watch
                lock.lock(); leaveFocusMode(); lock.unlock()
                return
            }
        } else {
            events = keys.flush()
        }
        for event in events {
            switch event {
            case .focusOut: hide()
            case .focusIn: show()
            default: break   // typed keys are not for us; they are dropped rather than echoed
            }
        }
    }

    /// After a stop: when in the foreground, the owner's settings back and `onShow`. In the background
    /// the screen stays hidden; the SIGCONT of the next `fg` brings it back.
    private func resumeIfInForeground() {
        lock.lock(); defer { lock.unlock() }
        guard stopped, TerminalIO.isInForeground(terminal) else { return }
        if let settings = settingsAtStop { TerminalIO.setAttributes(terminal, settings, discardingInput: false) }
        settingsAtStop = nil
        stopped = false
        enterFocusMode()
        if isVisible { onShow() }
    }
}
