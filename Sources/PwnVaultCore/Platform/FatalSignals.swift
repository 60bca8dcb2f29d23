import Glibc

// A fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE) or an abort (SIGABRT) while pwnvault has the terminal
// without echo, key at a time, or on the alternate screen would leave the user's shell that way
// (`-echo -icanon`, issue 30). While armed, these signals first put the terminal back, then kill the
// process with the same signal (default disposition), as `EchoOffGuard` does for SIGINT.
//
// The handler runs in a process that may be broken: only async-signal-safe calls (tcsetattr, write,
// sigaction, pthread_sigmask, raise), no allocation, no Swift objects, no locks. What it restores is
// computed beforehand and kept in memory allocated once (`fatalRestore`). SIGSEGV from a stack overflow
// needs a stack of its own: an alternate signal stack for the arming thread (`sigaltstack`).

/// What the handler puts back: `settings` on `input`, then `bytes` (the screen's leave sequence) on `output`.
struct FatalRestore {
    var input: Int32 = -1
    var output: Int32 = -1
    var settings = termios()
    /// Up to 32 bytes, inline so the handler copies nothing it would have to allocate.
    var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var byteCount = 0
}

nonisolated(unsafe) private let fatalRestore: UnsafeMutablePointer<FatalRestore> = {
    let p = UnsafeMutablePointer<FatalRestore>.allocate(capacity: 1)
    p.initialize(to: FatalRestore())
    return p
}()

/// Arms and disarms the terminal's restoration on fatal signals; strictly nested (`disarm` the value
/// `arm` returned, innermost first). The handlers are installed while anything is armed, and the
/// previous dispositions (Swift's backtracer's) put back when nothing is.
enum FatalSignals {
    /// The signals that end the process at once.
    static let signals: [Int32] = [SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT]
    /// The longest leave sequence the handler can write.
    static let maximumBytes = 32

    /// What was armed before; give it to `disarm`.
    struct Armed { fileprivate let previous: FatalRestore }

    private static let lock = Lock()
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var previousActions: [(Int32, sigaction)] = []
    nonisolated(unsafe) private static var alternateStack: UnsafeMutableRawPointer?
    private static let alternateStackSize = 64 * 1024

    /// From now until `disarm`, a fatal signal restores `settings` on `input` and writes `bytes`
    /// (at most `maximumBytes`) to `output` before the process dies of it.
    static func arm(input: Int32, output: Int32, settings: termios, bytes: [UInt8] = []) -> Armed {
        lock.withLock {
            let mask = TerminalIO.block(signals)
            defer { TerminalIO.setSignalMask(mask) }
            let previous = fatalRestore.pointee
            var next = FatalRestore(input: input, output: output, settings: settings)
            let count = min(bytes.count, maximumBytes)
            withUnsafeMutableBytes(of: &next.bytes) { raw in
                for i in 0..<count { raw[i] = bytes[i] }
            }
            next.byteCount = count
            fatalRestore.pointee = next
            if depth == 0 { install() }
            depth += 1
            return Armed(previous: previous)
        }
    }

    /// Puts back what was armed before `armed`'s `arm`; the last disarm gives the signals back.
    static func disarm(_ armed: Armed) {
        lock.withLock {
            let mask = TerminalIO.block(signals)
            defer { TerminalIO.setSignalMask(mask) }
            fatalRestore.pointee = armed.previous
            depth = max(0, depth - 1)
            if depth == 0 {
                for (signo, action) in previousActions { TerminalIO.setDisposition(signo, action) }
                previousActions = []
            }
        }
    }

    private static func install() {
        if alternateStack == nil, let memory = malloc(alternateStackSize) {
            var stack = stack_t()
            stack.ss_sp = memory
            stack.ss_size = alternateStackSize
            stack.ss_flags = 0
            if sigaltstack(&stack, nil) == 0 { alternateStack = memory } else { free(memory) }
        }
        previousActions = signals.map { ($0, TerminalIO.disposition($0)) }
        for signo in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = fatalSignalHandler
            sigemptyset(&action.sa_mask)
            for other in signals { sigaddset(&action.sa_mask, other) }   // one at a time
            action.sa_flags = SA_ONSTACK
            sigaction(signo, &action, nil)
        }
    }
}

/// The handler for every fatal signal while armed. Async-signal-safe.
private func fatalSignalHandler(_ signo: Int32) {
    let state = fatalRestore
    if state.pointee.input >= 0 {
        var settings = state.pointee.settings
        _ = tcsetattr(state.pointee.input, TCSAFLUSH, &settings)
    }
    if state.pointee.output >= 0, state.pointee.byteCount > 0 {
        var bytes = state.pointee.bytes
        let count = state.pointee.byteCount, fd = state.pointee.output
        withUnsafeBytes(of: &bytes) { raw in
            var done = 0
            while done < count {
                let n = write(fd, raw.baseAddress! + done, count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { break }
            }
        }
    }
    // Die of the same signal: the parent (a shell) sees the real cause, and a fault still dumps as it would.
    TerminalIO.setDefault(signo)
    var only = TerminalIO.singleSignalSet(signo)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(signo)
}
