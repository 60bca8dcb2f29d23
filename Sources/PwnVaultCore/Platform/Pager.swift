import Glibc

/// Shows long output through the user's pager (`$PAGER`, else `less -FRX`), on a terminal only.
/// The pager is started with default signal handling (pwnvault ignores SIGPIPE and SIGXFSZ, and
/// ignored signals would otherwise pass to it).
public final class Pager {
    private let pid: pid_t
    private let fd: Int32

    /// Starts `command` through `/bin/sh -c`; nil when it cannot be started (the caller prints directly).
    public init?(command: String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        guard SpawnActions.closeTheRest(&actions) else {   // both ends of the pipe among them
            close(fds[0]); close(fds[1])
            return nil
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGTSTP] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sh"), strdup("-c"), strdup(command), nil]
        defer { argv.forEach { free($0) } }
        let env = ChildEnvironment.cStrings()
        defer { env.forEach { free($0) } }
        let rc = posix_spawn(&child, "/bin/sh", &actions, &attr, argv, env)
        close(fds[0])
        guard rc == 0 else { close(fds[1]); return nil }
        pid = child
        fd = fds[1]
    }

    /// Writes text to the pager; false once the pager has gone (the user quit it).
    @discardableResult
    public func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        defer { bytes.removeAll() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    /// Closes the pager's input and waits for the user to leave it.
    public func finish() {
        close(fd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
