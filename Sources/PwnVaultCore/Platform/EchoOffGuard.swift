import Glibc

// Everything here runs, in part, inside signal handlers: only async-signal-safe calls (tcsetattr, write,
// sigaction, pthread_sigmask, raise), no allocation, no Swift objects, no locks. The state lives in
// memory allocated once and filled before any handler is installed.

/// What the handlers need while a prompt has echo turned off.
struct EchoOffState {
    var fd: Int32 = -1
    /// The terminal settings to put back.
    var saved = termios()
    /// The settings of the prompt: no echo, but ECHONL so Enter still moves to the next line.
    var quiet = termios()
    /// The prompt, written again after the process is continued from a stop.
    var prompt: UnsafeMutablePointer<UInt8>?
    var promptCount = 0
}

/// Unsafe on purpose: signal handlers read it, so it cannot be behind a lock or an actor. It is filled
/// before the handlers are installed and changed only with them blocked (see `EchoOffGuard`).
nonisolated(unsafe) private let echoOffState: UnsafeMutablePointer<EchoOffState> = {
    let p = UnsafeMutablePointer<EchoOffState>.allocate(capacity: 1)
    p.initialize(to: EchoOffState())
    return p
}()

/// Turns echo off on a terminal for the length of a prompt, and guarantees it comes back on: when the
/// prompt ends, and when a signal ends or stops the process in the middle of it.
///
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore the terminal, then die of the same signal (default
///   disposition), so the parent sees the real cause. Signals the process ignores stay ignored.
/// - SIGTSTP (Ctrl-Z): restore the terminal, stop; when continued, turn echo off again and repeat the prompt.
///
/// One prompt at a time per process: the handlers and their state are process-wide.
struct EchoOffGuard {
    /// The signals watched while echo is off (keep `installHandler`'s mask in step).
    static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    private let fd: Int32
    private var previousActions: [(Int32, sigaction)] = []
    private let promptCopy: UnsafeMutableBufferPointer<UInt8>
    /// A fault or an abort during the prompt puts echo back too (FatalSignals).
    private let fatalSignals: FatalSignals.Armed

    /// Saves the settings of `fd`, installs the handlers, turns echo off and writes `prompt`, with the
    /// handled signals blocked so none can arrive half-way. Returns nil when `fd` is not a terminal.
    init?(fd: Int32, prompt: [UInt8]) {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK)
        quiet.c_lflag |= tcflag_t(ECHONL | ICANON)

        self.fd = fd
        fatalSignals = FatalSignals.arm(input: fd, output: -1, settings: saved)
        promptCopy = .allocate(capacity: max(prompt.count, 1))
        _ = promptCopy.initialize(from: prompt)

        var blocked = TerminalIO.signalSet(EchoOffGuard.handledSignals)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        echoOffState.pointee = EchoOffState(fd: fd, saved: saved, quiet: quiet,
                                            prompt: promptCopy.baseAddress, promptCount: prompt.count)
        for signo in EchoOffGuard.handledSignals {
            var previous = sigaction()
            sigaction(signo, nil, &previous)
            guard !TerminalIO.isIgnored(previous) else { continue }
            EchoOffGuard.installHandler(signo)
            previousActions.append((signo, previous))
        }
        _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        writeAll(fd, promptCopy.baseAddress, prompt.count)
        pthread_sigmask(SIG_SETMASK, &before, nil)
    }

    /// Puts the terminal settings and the previous signal dispositions back (TCSAFLUSH: anything typed
    /// but not read is discarded, it may be the rest of a passphrase).
    func restore() {
        var blocked = TerminalIO.signalSet(EchoOffGuard.handledSignals)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        var saved = echoOffState.pointee.saved
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        for (signo, previous) in previousActions {
            var action = previous
            sigaction(signo, &action, nil)
        }
        echoOffState.pointee = EchoOffState()
        FatalSignals.disarm(fatalSignals)
        promptCopy.deallocate()
        pthread_sigmask(SIG_SETMASK, &before, nil)   // a signal that came meanwhile now meets its old disposition
    }

    /// Also called from the SIGTSTP handler, so it touches no Swift array or object.
    fileprivate static func installHandler(_ signo: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = echoOffSignalHandler
        sigemptyset(&action.sa_mask)   // one handler at a time: all the watched signals wait while one runs
        sigaddset(&action.sa_mask, SIGINT); sigaddset(&action.sa_mask, SIGTERM); sigaddset(&action.sa_mask, SIGHUP)
        sigaddset(&action.sa_mask, SIGQUIT); sigaddset(&action.sa_mask, SIGTSTP)
        action.sa_flags = SA_RESTART
        sigaction(signo, &action, nil)
    }

    // setDefault, signalSet, singleSignalSet and isIgnored are shared with the private screen and the
    // screen guard: see TerminalIO.
}

/// Writes all `count` bytes, retrying on EINTR and short writes. Async-signal-safe.
private func writeAll(_ fd: Int32, _ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int) {
    guard let bytes else { return }
    var done = 0
    while done < count {
        let n = write(fd, bytes + done, count - done)
        if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
    }
}

/// The handler for every signal `EchoOffGuard` watches. Async-signal-safe.
private func echoOffSignalHandler(_ signo: Int32) {
    let savedErrno = errno
    let state = echoOffState
    let fd = state.pointee.fd
    var saved = state.pointee.saved
    _ = tcsetattr(fd, TCSAFLUSH, &saved)

    if signo == SIGTSTP {
        // Stop for real: default disposition, unblocked, raised. Execution resumes here on SIGCONT.
        TerminalIO.setDefault(SIGTSTP)
        var only = TerminalIO.singleSignalSet(SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(SIGTSTP)
        pthread_sigmask(SIG_BLOCK, &only, nil)
        EchoOffGuard.installHandler(SIGTSTP)
        var quiet = state.pointee.quiet
        _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        writeAll(fd, state.pointee.prompt, state.pointee.promptCount)
        errno = savedErrno
        return
    }

    // Move past the prompt line so the shell's prompt starts on a line of its own, then die of `signo`.
    var newline: UInt8 = 10
    _ = write(fd, &newline, 1)
    TerminalIO.setDefault(signo)
    var only = TerminalIO.singleSignalSet(signo)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(signo)
    errno = savedErrno
}
