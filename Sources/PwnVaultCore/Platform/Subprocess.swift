import Glibc

/// A program started with `posix_spawn` (what Foundation's `Process` and `Pipe` did for pwnvault, without
/// loading Foundation): standard input from `/dev/null` or from given bytes, standard output and error
/// captured or discarded, a time limit after which the program is killed, and its exit status.
///
/// Both outputs and the input are serviced together in one `poll` loop while the program runs, so a
/// program that writes a lot to both streams, or reads all of its input before writing, never stalls
/// on a full pipe. The program gets default signal handling and an empty signal mask (pwnvault ignores
/// SIGPIPE and SIGXFSZ, and ignored signals would otherwise pass to it). No other descriptor reaches
/// it: the child closes every descriptor above 2 before the program starts (`SpawnActions`), whether
/// or not whoever opened it asked for close-on-exec (libcurl's sockets did not).
public enum Subprocess {
    /// How the program ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
        /// It was still running at the time limit and was killed (SIGKILL).
        case timedOut
    }

    /// What a standard output or error stream becomes.
    public enum Output: Sendable {
        /// Read into the result, up to `limit` bytes (the rest is read and dropped).
        case capture(limit: Int = 16 << 20)
        /// `/dev/null`.
        case discard
    }

    public struct Result: Sendable {
        public var termination: Termination
        public var output: [UInt8]
        public var errorOutput: [UInt8]
        /// Whether both captured streams reached their end. False when something the program started
        /// (a pager, an agent) still held them open when reading gave up.
        public var outputComplete: Bool
    }

    /// Runs `executable` (a full path) with `arguments` and exactly `environment`, and waits for it.
    /// nil when it could not be started. After `timeLimit` seconds it is killed and the result says
    /// `.timedOut`. Once it has exited, captured streams are read on for at most `drainLimit` seconds
    /// (`nil`: until `timeLimit` from the start).
    public static func run(_ executable: String, arguments: [String], environment: [String: String],
                           input: [UInt8]? = nil, output: Output = .capture(), error: Output = .capture(),
                           timeLimit: Double, drainLimit: Double? = nil) -> Result? {
        let start = monotonicSeconds()
        var channels = Channels()
        defer { channels.closeAll() }
        guard channels.open(input: input != nil, output: output, error: error),
              let pid = spawn(executable, arguments: arguments, environment: environment, channels: &channels)
        else { return nil }
        var out: [UInt8] = [], err: [UInt8] = []
        let outLimit: Int, errLimit: Int
        if case .capture(let limit) = output { outLimit = limit } else { outLimit = 0 }
        if case .capture(let limit) = error { errLimit = limit } else { errLimit = 0 }
        var pending = input ?? []
        var written = 0
        if channels.stdinWrite >= 0 && pending.isEmpty { channels.close(&channels.stdinWrite) }
        if channels.stdinWrite >= 0 { _ = fcntl(channels.stdinWrite, F_SETFL, fcntl(channels.stdinWrite, F_GETFL) | O_NONBLOCK) }

        var termination: Termination?
        var exitedAt = 0.0
        while true {
            let now = monotonicSeconds()
            if termination == nil, let ended = reap(pid, blocking: false) { termination = ended; exitedAt = now }
            let open = channels.stdoutRead >= 0 || channels.stderrRead >= 0
            if let termination, !open {
                return Result(termination: termination, output: out, errorOutput: err, outputComplete: true)
            }
            let deadline: Double
            if termination == nil {
                deadline = start + timeLimit
            } else {
                deadline = drainLimit.map { exitedAt + $0 } ?? start + timeLimit
            }
            if now >= deadline {
                if let termination {
                    return Result(termination: termination, output: out, errorOutput: err, outputComplete: false)
                }
                kill(pid, SIGKILL)
                _ = reap(pid, blocking: true)
                return Result(termination: .timedOut, output: out, errorOutput: err, outputComplete: false)
            }
            // Wake at least every 10 ms while it runs to notice its exit (its output may stay open).
            let wait = termination == nil ? min(deadline - now, 0.01) : deadline - now
            var fds: [pollfd] = []
            if channels.stdoutRead >= 0 { fds.append(pollfd(fd: channels.stdoutRead, events: Int16(POLLIN), revents: 0)) }
            if channels.stderrRead >= 0 { fds.append(pollfd(fd: channels.stderrRead, events: Int16(POLLIN), revents: 0)) }
            if channels.stdinWrite >= 0 { fds.append(pollfd(fd: channels.stdinWrite, events: Int16(POLLOUT), revents: 0)) }
            if fds.isEmpty {
                usleep(UInt32(max(1, wait * 1_000_000)))
                continue
            }
            guard poll(&fds, nfds_t(fds.count), Int32(max(1, (wait * 1000).rounded(.up)))) > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == channels.stdinWrite {
                    let n = writeWithoutSIGPIPE(entry.fd, pending, from: written)
                    if n > 0 { written += n }
                    if (n < 0 && errno != EINTR && errno != EAGAIN) || written == pending.count {
                        channels.close(&channels.stdinWrite)   // all written, or it stopped reading (EPIPE)
                        pending.removeAll()
                    }
                } else if entry.fd == channels.stdoutRead {
                    if !drain(entry.fd, into: &out, limit: outLimit) { channels.close(&channels.stdoutRead) }
                } else if entry.fd == channels.stderrRead {
                    if !drain(entry.fd, into: &err, limit: errLimit) { channels.close(&channels.stderrRead) }
                }
            }
        }
    }

    /// Starts `executable` with its standard streams on `/dev/null` and does not wait for it (xdg-open
    /// hands the address to a browser and exits on its own). False when it could not be started.
    @discardableResult
    public static func launch(_ executable: String, arguments: [String], environment: [String: String]) -> Bool {
        var channels = Channels()
        defer { channels.closeAll() }
        return spawn(executable, arguments: arguments, environment: environment, channels: &channels) != nil
    }

    // MARK: -

    /// The parent's ends of the pipes (-1 when not a pipe) and the child's ends to hand over.
    private struct Channels {
        var stdinRead: Int32 = -1, stdinWrite: Int32 = -1
        var stdoutRead: Int32 = -1, stdoutWrite: Int32 = -1
        var stderrRead: Int32 = -1, stderrWrite: Int32 = -1

        mutating func open(input: Bool, output: Output, error: Output) -> Bool {
            if input { guard let p = makePipe() else { return false }; (stdinRead, stdinWrite) = p }
            if case .capture = output { guard let p = makePipe() else { return false }; (stdoutRead, stdoutWrite) = p }
            if case .capture = error { guard let p = makePipe() else { return false }; (stderrRead, stderrWrite) = p }
            return true
        }

        /// Closes the child's ends (after the spawn, so that end of file arrives when the child exits).
        mutating func closeChildEnds() {
            close(&stdinRead); close(&stdoutWrite); close(&stderrWrite)
        }

        mutating func closeAll() {
            closeChildEnds()
            close(&stdinWrite); close(&stdoutRead); close(&stderrRead)
        }

        func close(_ fd: inout Int32) {
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }

        private func makePipe() -> (Int32, Int32)? {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return nil }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
    }

    private static func spawn(_ executable: String, arguments: [String], environment: [String: String],
                              channels: inout Channels) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, childEnd, writable) in [(Int32(0), channels.stdinRead, false), (1, channels.stdoutWrite, true),
                                         (2, channels.stderrWrite, true)] {
            if childEnd >= 0 {
                posix_spawn_file_actions_adddup2(&actions, childEnd, fd)
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", writable ? O_WRONLY : O_RDONLY, 0)
            }
        }
        guard SpawnActions.closeTheRest(&actions) else { channels.closeChildEnds(); return nil }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attr, argv, env)
        channels.closeChildEnds()
        return rc == 0 ? pid : nil
    }

    /// `write` with SIGPIPE blocked on this thread, and a SIGPIPE it raised (the program closed its input)
    /// taken back, so that a caller that does not ignore SIGPIPE (a test runner) is not killed by it.
    private static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Int {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        let code = errno
        if n < 0 && code == EPIPE && sigismember(&previous, SIGPIPE) == 0 {
            var none = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &none)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = code
        return n
    }

    /// Reads what is there; false at end of file or on an error.
    private static func drain(_ fd: Int32, into buffer: inout [UInt8], limit: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN }
        if n == 0 { return false }
        let room = max(0, limit - buffer.count)
        buffer.append(contentsOf: chunk[0..<min(n, room)])
        return true
    }

    private static func reap(_ pid: pid_t, blocking: Bool) -> Termination? {
        var status: Int32 = 0
        while true {
            let rc = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if rc < 0 && errno == EINTR { continue }
            guard rc == pid else { return nil }
            break
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
