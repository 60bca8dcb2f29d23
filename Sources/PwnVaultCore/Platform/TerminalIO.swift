import Glibc

// Every C library call behind the private screen, the screen guard and the share-mode detector, in one
// place (`EchoOffGuard` keeps its own in-handler calls but shares the signal helpers below). Nothing here
// decides policy; each function is a thin, typed wrapper that retries on EINTR where that can happen.
//
// The signal handler below runs inside signal delivery: it only calls write(2) on a descriptor stored
// in memory allocated once, before any handler is installed.

/// The write end of the active signal self-pipe, or -1. Read by the handler, so it lives in raw memory.
/// Unsafe on purpose: a signal handler cannot take a lock; it is an aligned Int32 written only while
/// the handlers that read it are not installed.
nonisolated(unsafe) let signalPipeWriteEnd: UnsafeMutablePointer<Int32> = {
    let p = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    p.initialize(to: -1)
    return p
}()

/// Writes the signal number as one byte into the self-pipe. Async-signal-safe; keeps `errno`.
private func selfPipeSignalHandler(_ signo: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    let fd = signalPipeWriteEnd.pointee
    if fd >= 0 { _ = write(fd, &byte, 1) }   // a full pipe drops the byte: the reader is behind anyway
    errno = savedErrno
}

/// A terminal's settings (termios), as saved to be put back; only `TerminalIO` looks inside.
struct TerminalSettings {
    fileprivate var raw: termios
}

/// Thin wrappers over termios, poll, read/write, signal dispositions and /proc, for `Screen/`.
enum TerminalIO {
    // MARK: termios and the terminal

    /// The settings of the terminal at `fd`; nil when it is not a terminal.
    static func attributes(_ fd: Int32) -> TerminalSettings? {
        var t = termios()
        return tcgetattr(fd, &t) == 0 ? TerminalSettings(raw: t) : nil
    }

    /// Applies `settings`. With `discardingInput` (TCSAFLUSH) anything typed but not yet read is thrown
    /// away: what was typed at a private screen must not reach the shell. Retries on EINTR.
    @discardableResult
    static func setAttributes(_ fd: Int32, _ settings: TerminalSettings, discardingInput: Bool) -> Bool {
        var t = settings.raw
        while true {
            if tcsetattr(fd, discardingInput ? TCSAFLUSH : TCSANOW, &t) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Key-at-a-time input: no line editing, no echo, no extended input processing (Ctrl-V, Ctrl-O are
    /// delivered as bytes), but ISIG kept so Ctrl-C, Ctrl-Z and Ctrl-\ still raise signals. Output
    /// processing is left alone.
    static func keyAtATime(from saved: TerminalSettings) -> TerminalSettings {
        var t = saved.raw
        t.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHOE | ECHOK | ECHONL | IEXTEN)
        t.c_lflag |= tcflag_t(ISIG)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return TerminalSettings(raw: t)
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The controlling terminal (`/dev/tty`), opened for reading and writing; nil without one.
    static func openControllingTerminal() -> Int32? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// Columns and rows of the terminal at `fd`; nil when unknown (not a terminal, or a size of 0).
    static func windowSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// False only when `fd` is our controlling terminal and another process group is in its foreground
    /// (we were put in the background with `bg`, or started with `&`). A terminal that is not our
    /// controlling terminal counts as foreground: no job control applies to it.
    static func isInForeground(_ fd: Int32) -> Bool {
        let foreground = tcgetpgrp(fd)
        return foreground < 0 || foreground == getpgrp()
    }

    // MARK: reading and writing

    /// Writes every byte, retrying on EINTR and short writes. False when the terminal refused (hung up).
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
    }

    /// The outcome of one `read`.
    enum ReadOutcome: Equatable {
        case bytes([UInt8])
        /// Nothing to read now (EAGAIN), or interrupted by a signal.
        case nothing
        /// End of input or an error: the terminal hung up.
        case closed
    }

    /// The outcome of reading one byte into the caller's (secret) memory.
    enum ByteOutcome: Equatable {
        case byte
        /// End of input.
        case ended
        /// Interrupted by a signal (EINTR).
        case interrupted
        /// Nothing to read now on a non-blocking descriptor (EAGAIN), in the C library's words.
        case wouldBlock(reason: String)
        /// Any other error, in the C library's words (`strerror`).
        case failed(reason: String)
    }

    /// One `read` of one byte into `destination` (a place in the caller's buffer: the byte may be part
    /// of a passphrase, so it goes nowhere else).
    static func readByte(_ fd: Int32, into destination: UnsafeMutableRawPointer) -> ByteOutcome {
        let n = Glibc.read(fd, destination, 1)
        if n == 1 { return .byte }
        if n == 0 { return .ended }
        let code = errno
        if code == EINTR { return .interrupted }
        let reason = String(cString: strerror(code))
        return code == EAGAIN ? .wouldBlock(reason: reason) : .failed(reason: reason)
    }

    static func read(_ fd: Int32, maximum: Int = 256) -> ReadOutcome {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, maximum) }
        if n > 0 { return .bytes(Array(buffer.prefix(n))) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return .nothing }
        return .closed
    }

    /// Waits up to `milliseconds` (-1: forever) for any of `fds` to be readable or hung up. Returns one
    /// flag per descriptor; all false on a timeout or when a signal interrupted the wait.
    static func poll(_ fds: [Int32], milliseconds: Int32) -> [Bool] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let n = Glibc.poll(&entries, nfds_t(entries.count), milliseconds)
        guard n > 0 else { return fds.map { _ in false } }
        return entries.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 }
    }

    /// Seconds on a clock that keeps counting while the process is stopped and while the machine is
    /// suspended (CLOCK_BOOTTIME): a reveal timeout must expire during a laptop's sleep too.
    static func secondsSinceBoot() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    // MARK: the self-pipe

    /// A pipe whose both ends are non-blocking and close-on-exec (`pipe2` is not exported by Glibc).
    static func makeSelfPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Writes one byte (a signal number, or 0 to wake a reader) into a self-pipe.
    static func poke(_ fd: Int32, _ byte: UInt8) {
        var b = byte
        _ = write(fd, &b, 1)
    }

    // MARK: signal dispositions (shared with EchoOffGuard; every function here is async-signal-safe)

    /// The current disposition of `signo`.
    static func disposition(_ signo: Int32) -> sigaction {
        var current = sigaction()
        sigaction(signo, nil, &current)
        return current
    }

    static func setDisposition(_ signo: Int32, _ action: sigaction) {
        var a = action
        sigaction(signo, &a, nil)
    }

    /// Whether `action` is SIG_IGN. Signals a parent chose to ignore (`nohup`) stay ignored.
    static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1   // SIG_IGN
    }

    /// Installs the self-pipe handler for `signo`, with SA_RESTART so other threads' calls are not
    /// interrupted, and every signal of `blocking` held while it runs.
    static func installSelfPipeHandler(_ signo: Int32, blocking: sigset_t) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = selfPipeSignalHandler
        action.sa_mask = blocking
        action.sa_flags = SA_RESTART
        sigaction(signo, &action, nil)
    }

    static func setDefault(_ signo: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = nil   // SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signo, &action, nil)
    }

    static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }

    static func singleSignalSet(_ signo: Int32) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signo)
        return set
    }

    /// Blocks `signals` in the calling thread; returns the mask to give back to `setSignalMask`.
    static func block(_ signals: [Int32]) -> sigset_t {
        var set = signalSet(signals), before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &before)
        return before
    }

    static func setSignalMask(_ mask: sigset_t) {
        var m = mask
        pthread_sigmask(SIG_SETMASK, &m, nil)
    }

    /// Stops the process for real, as Ctrl-Z would have without a handler: default disposition,
    /// unblocked, raised. Returns once the process is continued (`fg`, `bg`, SIGCONT); the caller then
    /// puts its handler back. In an orphaned process group the kernel discards the stop and this returns
    /// at once, which is right: nobody could continue us.
    static func stopProcess() {
        setDefault(SIGTSTP)
        var only = singleSignalSet(SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(SIGTSTP)
    }

    /// Ends the process with `signo`'s default action, so that the parent sees the real cause (a shell
    /// running a script stops the script on a child killed by SIGINT). For callers that have finished
    /// their cleanup; PwnVaultCore itself never calls it.
    static func dieOf(_ signo: Int32) -> Never {
        setDefault(signo)
        var only = singleSignalSet(signo)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(signo)
        _exit(128 + signo)   // only if the signal did not kill (it always does for INT, TERM, HUP, QUIT)
    }

    // MARK: /proc, for finding who holds our terminal

    /// The index N of the pseudo-terminal `/dev/pts/N` open on `fd`; nil when it is something else.
    static func ptyIndex(ofDescriptor fd: Int32) -> Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFCHR else { return nil }
        let dev = UInt64(st.st_rdev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
        let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
        guard (136...143).contains(major) else { return nil }   // UNIX98_PTY_SLAVE_MAJOR .. + 7
        return Int((major - 136) * 256 + minor)
    }

    /// Where the symbolic link at `path` points; nil when it cannot be read.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// At most `limit` bytes of a (small, /proc) file, as text; nil when it cannot be opened.
    static func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while result.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, min($0.count, limit - result.count)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            result.append(contentsOf: chunk.prefix(n))
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The names in a folder (without "." and ".."); empty when it cannot be read.
    static func directoryEntries(_ path: String) -> [String] {
        (try? FileSystem.directoryEntries(path)) ?? []
    }
}

extension FatalSignals {
    /// `arm` with settings as `TerminalIO` saved them.
    static func arm(input: Int32, output: Int32, settings: TerminalSettings, bytes: [UInt8] = []) -> Armed {
        arm(input: input, output: output, settings: settings.raw, bytes: bytes)
    }
}
