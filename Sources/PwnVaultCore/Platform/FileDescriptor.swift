import Dispatch
import Glibc

/// An open file descriptor that is closed exactly once: by `close()`, whose error matters when writing,
/// or else when the value goes away. Every call retries on `EINTR` and reports failures as `SystemError`.
final class FileDescriptor {
    private(set) var raw: Int32

    /// Whether `deinit` closes it: false for the standard streams, which are only borrowed.
    private let owned: Bool

    init(raw: Int32) { self.raw = raw; owned = true }

    private init(borrowed raw: Int32) { self.raw = raw; owned = false }

    /// A descriptor this process keeps open (stdin), read or written through this type but never closed.
    static func borrowing(_ raw: Int32) -> FileDescriptor { FileDescriptor(borrowed: raw) }

    /// Whether `fd` is an open descriptor of this process (`--passphrase-fd N` given a closed one).
    static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

    deinit { if owned && raw >= 0 { _ = Glibc.close(raw) } }

    /// Closes now and reports the error (`close` can be the first to report a failed write-back on some
    /// file systems). Not retried on `EINTR`: on Linux the descriptor is released even then.
    func close() throws {
        guard raw >= 0 else { return }
        let fd = raw
        raw = -1
        if Glibc.close(fd) != 0 && errno != EINTR { throw SystemError.fromErrno("close") }
    }

    func status() throws -> FileStatus {
        var st = stat()
        guard fstat(raw, &st) == 0 else { throw SystemError.fromErrno("fstat") }
        return FileStatus(st)
    }

    /// `fchmod`: sets the permission bits on the open file itself, whatever the umask was at creation.
    func setPermissions(_ mode: UInt32) throws {
        guard fchmod(raw, mode_t(mode)) == 0 else { throw SystemError.fromErrno("fchmod") }
    }

    /// Writes every byte, looping over short writes and `EINTR`. A file-size limit shows up here as
    /// `EFBIG` (provided SIGXFSZ is ignored, see `ProcessHygiene`), a full disk as `ENOSPC`.
    func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(raw, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 {
                    throw SystemError.fromErrno("write")
                } else {
                    throw SystemError("write", code: EIO)   // no progress and no error: never loop forever
                }
            }
        }
    }

    /// Reads to the end of the file. Returns nil when the file holds more than `limit` bytes.
    ///
    /// `expectedSize` (a regular file's size, from `status()`): read straight into one buffer of that
    /// size and one byte more (to see that the file grew), instead of 64 KiB chunks appended to an
    /// array that doubles as it grows (the vault of 10,000 accounts, 1.4 MB, was copied five times
    /// and touched twice its size in fresh pages). Whatever follows is read in chunks as before.
    func readAll(limit: Int, expectedSize: Int = 0) throws -> [UInt8]? {
        var result: [UInt8] = []
        if expectedSize > 0 {
            let capacity = min(expectedSize, limit) + 1
            var failure: Int32 = 0
            result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                while count < capacity {
                    let n = Glibc.read(raw, buffer.baseAddress! + count, capacity - count)
                    if n == 0 { break }
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        break
                    }
                    count += n
                }
            }
            if failure != 0 { errno = failure; throw SystemError.fromErrno("read") }
            if result.count > limit { return nil }
            if result.count < capacity { return result }   // the end came where the size said
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(raw, $0.baseAddress!, $0.count) }
            if n == 0 { return result }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.fromErrno("read")
            }
            if result.count + n > limit { return nil }
            result.append(contentsOf: chunk[0..<n])
        }
    }

    /// Opens `path` for reading only (`O_CLOEXEC`, `O_NOCTTY`: a terminal given as a path never becomes
    /// the controlling one).
    static func openForReading(_ path: String) throws -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw SystemError.fromErrno("open") }
        return FileDescriptor(raw: fd)
    }

    /// One `read` into `buffer`, retried on `EINTR`: the bytes read, 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(raw, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError.fromErrno("read") }
        }
    }

    /// One `pread` into `buffer` at `offset`, without moving the file position: the bytes read, 0 at the
    /// end of the file. A call interrupted by a signal (`EINTR`) returns nil, for the caller to retry.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int? {
        let n = pread(raw, buffer.baseAddress, buffer.count, off_t(offset))
        if n >= 0 { return n }
        if errno == EINTR { return nil }
        throw SystemError.fromErrno("pread")
    }

    /// `posix_fadvise(POSIX_FADV_RANDOM)`: reads will jump around, read-ahead would fetch pages nobody
    /// asked for. Only advice: a failure changes nothing.
    func adviseRandomAccess() {
        _ = posix_fadvise(raw, 0, 0, POSIX_FADV_RANDOM)
    }

    /// `fsync`: the data and the size reach the disk before this returns.
    func synchronize() throws {
        while fsync(raw) != 0 {
            if errno != EINTR { throw SystemError.fromErrno("fsync") }
        }
    }

    /// Takes an exclusive `flock` on the open file description, polling with `LOCK_NB` and short sleeps
    /// so that it can give up: returns false when `timeout` passed without getting it.
    ///
    /// The lock belongs to this open file description, so two descriptors opened separately exclude
    /// each other even inside one process. It goes away when the descriptor is closed, or when the
    /// process dies however it dies: a lock is never left behind.
    func lockExclusively(timeout: Duration) throws -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        let limit = UInt64(max(0, timeout.nanoseconds))
        var pause: UInt32 = 1_000   // microseconds; doubles up to 50 ms
        while true {
            if flock(raw, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else { throw SystemError("flock", code: code) }
            if DispatchTime.now().uptimeNanoseconds - start >= limit { return false }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// Releases a `flock` early (closing the descriptor releases it too).
    func unlock() {
        _ = flock(raw, LOCK_UN)
    }
}
