import Foundation
import Glibc

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
/// Focus: the guard does not read the terminal. Reading keys during a long run would take the user's
/// typed-ahead input and change the terminal's settings for the whole run, and these screens show only
/// masked accounts and counts; unmasked accounts appear only on `PrivateScreen`, which hides on focus
/// loss. An owner that reads keys itself (a paged list using `KeyReader`) can pass focus events on
/// through `hide()` and `show()`.
///
/// Install one guard at a time; `uninstall()` before the owner prints its final output.
public final class ScreenGuard: @unchecked Sendable {
    /// What SIGINT, SIGTERM and SIGHUP do once the screen is cleaned up.
    public enum InterruptHandling: Sendable {
        /// End the process with the signal (default disposition, raised).
        case terminate
        /// Keep running; set `interruption` and call `onInterrupt`. For work worth saving (`check --all`).
        case report
    }

    static let watchedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT]

    private let lock = NSLock()
    private let terminal: Int32
    private let savedSettings: termios?
    private let interrupts: InterruptHandling
    private let onHide: () -> Void
    private let onShow: () -> Void
    private let onInterrupt: ((Int32) -> Void)?
    private let signals: SignalPipe
    private let finished = DispatchSemaphore(value: 0)

    // Guarded by `lock`.
    private var stopped = false
    /// The owner's terminal settings when it was stopped, put back when it continues.
    private var settingsAtStop: termios?
    private var hiddenByOwner = false
    private var interruptedBy: Int32?
    private var installed = true

    private init(terminal: Int32, interrupts: InterruptHandling, signals: SignalPipe,
                 onHide: @escaping () -> Void, onShow: @escaping () -> Void, onInterrupt: ((Int32) -> Void)?) {
        self.terminal = terminal
        self.savedSettings = TerminalIO.attributes(terminal)
        self.interrupts = interrupts
        self.signals = signals
        self.onHide = onHide; self.onShow = onShow; self.onInterrupt = onInterrupt
    }

    /// Starts guarding the screen on `terminal` (the descriptor the owner draws on, usually stderr;
    /// its settings are the ones restored). Throws `ScreenError.noSignalPipe` when out of descriptors.
    public static func install(terminal: Int32 = STDERR_FILENO, interrupts: InterruptHandling,
                               onHide: @escaping () -> Void, onShow: @escaping () -> Void,
                               onInterrupt: ((Int32) -> Void)? = nil) throws -> ScreenGuard {
        guard let signals = SignalPipe(signals: watchedSignals) else { throw ScreenError.noSignalPipe }
        let guardian = ScreenGuard(terminal: terminal, interrupts: interrupts, signals: signals,
                                   onHide: onHide, onShow: onShow, onInterrupt: onInterrupt)
        let thread = Thread { guardian.watch() }
        thread.name = "pwnvault screen guard"
        thread.start()
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
        signals.restore()
    }

    deinit { uninstall() }

    // MARK: the guard's thread

    private var isVisible: Bool { installed && !stopped && !hiddenByOwner && interruptedBy == nil }

    private func watch() {
        defer { finished.signal() }
        while true {
            guard TerminalIO.poll([signals.readEnd], milliseconds: -1)[0] else { continue }
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
        case SIGTSTP:
            lock.lock()
            if !stopped { settingsAtStop = TerminalIO.attributes(terminal) }
            hideAndRestore()
            stopped = true
            lock.unlock()
            TerminalIO.stopProcess()
            signals.reinstall(SIGTSTP)
            resumeIfInForeground()
        case SIGCONT:
            resumeIfInForeground()
        case SIGINT, SIGTERM, SIGHUP, SIGQUIT:
            lock.lock()
            hideAndRestore()
            if interrupts == .terminate || signo == SIGQUIT { TerminalIO.dieOf(signo) }
            let first = interruptedBy == nil
            if first {
                interruptedBy = signo
                for s in [SIGINT, SIGTERM, SIGHUP] { signals.release(s) }
            }
            lock.unlock()
            if first { onInterrupt?(signo) }
        default:
            break   // the wake byte
        }
    }

    /// Calls `onHide` if the screen was showing, and puts back the settings found at installation.
    /// Called with the lock held.
    private func hideAndRestore() {
        if isVisible { onHide() }
        if let saved = savedSettings { TerminalIO.setAttributes(terminal, saved, discardingInput: false) }
    }

    /// After a stop: when in the foreground, the owner's settings back and `onShow`. In the background
    /// the screen stays hidden; the SIGCONT of the next `fg` brings it back.
    private func resumeIfInForeground() {
        lock.lock(); defer { lock.unlock() }
        guard stopped, TerminalIO.isInForeground(terminal) else { return }
        if let settings = settingsAtStop { TerminalIO.setAttributes(terminal, settings, discardingInput: false) }
        settingsAtStop = nil
        stopped = false
        if isVisible { onShow() }
    }
}
