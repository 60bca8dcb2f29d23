import Glibc

/// Thin typed wrappers over the path-based file calls the vault store needs. Each retries on `EINTR`
/// where that can happen and throws `SystemError`; nothing here decides policy.
enum FileSystem {
    /// The characters `mkstemp` uses for its `XXXXXX`.
    static let temporarySuffixAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    /// The number of random characters in a temporary name, as with `mkstemp`.
    static let temporarySuffixLength = 6

    /// The effective user id of this process.
    static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// The working folder, or nil when it cannot be read (deleted, or not reachable).
    static var currentDirectory: String? {
        guard let p = getcwd(nil, 0) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// What a file is opened for; each maps to one fixed set of flags, always with `O_CLOEXEC`
    /// (no descriptor leaks into a pager), `O_NOFOLLOW` (a link planted at the path is refused with
    /// ELOOP) and `O_NOCTTY`.
    enum OpenIntent {
        /// An existing file, read-only. `O_NONBLOCK` so that a FIFO planted at the path cannot hang the
        /// open; it changes nothing for regular files.
        case readExisting
        /// A new file, write-only; fails with EEXIST if anything is at the path. Mode 0600 (then fchmod).
        case createExclusively
        /// A lock file: read-write, created 0600 if missing.
        case lockFile
        /// A folder, to fsync it.
        case folder
        /// A passphrase file, read-only and blocking, links followed: it may be `/dev/fd/63` from a
        /// shell's `<(pass show vault)`, which is a link to a pipe.
        case readPassphrase
        /// A passphrase file that must be a regular one: never blocks, even if a FIFO was put there
        /// after it was looked at (the caller checks the kind of what it opened).
        case readPassphraseFile

        var flags: Int32 {
            switch self {
            case .readExisting: return O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK
            case .createExclusively: return O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY
            case .lockFile: return O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK
            case .folder: return O_RDONLY | O_DIRECTORY
            case .readPassphrase: return O_RDONLY | O_NOCTTY
            case .readPassphraseFile: return O_RDONLY | O_NOCTTY | O_NONBLOCK
            }
        }
    }

    /// `open` for `intent`. New files get mode 0600 less the umask; callers `fchmod` to be exact.
    static func open(_ path: String, for intent: OpenIntent) throws -> FileDescriptor {
        while true {
            let fd = Glibc.open(path, intent.flags | O_CLOEXEC, mode_t(0o600))
            if fd >= 0 { return FileDescriptor(raw: fd) }
            if errno != EINTR { throw SystemError.fromErrno("open") }
        }
    }

    /// Creates a new file `prefix` + six random characters, exclusively, mode 0600 whatever the umask.
    ///
    /// This is `mkstemp` done by hand, because Glibc's `mkostemp` is not visible to Swift and
    /// `mkstemp` alone cannot add `O_CLOEXEC` (a pager started meanwhile would inherit the descriptor)
    /// or `O_NOFOLLOW`. `O_EXCL` makes the creation exclusive exactly as in `mkstemp`.
    static func createTemporaryFile(prefix: String) throws -> (FileDescriptor, path: String) {
        var lastError = SystemError("open", code: EEXIST)
        for _ in 0..<100 {
            let path = prefix + randomSuffix()
            do {
                let fd = try open(path, for: .createExclusively)
                do {
                    try fd.setPermissions(0o600)
                } catch {
                    try? removeFile(path)
                    throw error
                }
                return (fd, path)
            } catch let error as SystemError where error.isAlreadyExisting {
                lastError = error
            }
        }
        throw lastError
    }

    /// Six characters from `temporarySuffixAlphabet`, as `mkstemp` would choose.
    static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<temporarySuffixLength).map { _ in temporarySuffixAlphabet.randomElement(using: &generator)! })
    }

    /// `stat` (or `lstat` when not following links). Nil when the path does not exist.
    static func status(_ path: String, followingLinks: Bool) throws -> FileStatus? {
        var st = stat()
        let rc = followingLinks ? stat(path, &st) : lstat(path, &st)
        if rc == 0 { return FileStatus(st) }
        let error = SystemError.fromErrno(followingLinks ? "stat" : "lstat")
        if error.isNotFound { return nil }
        throw error
    }

    /// Where the symbolic link at `path` points; nil when it is not a link or cannot be read.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` reaches, through links, an anonymous pipe (`/dev/fd/63` from a shell's
    /// `<(pass show vault)`, `/dev/stdin` fed by a pipe): Linux shows those as links to `pipe:[N]`.
    /// A named pipe (FIFO) made with mkfifo is not one.
    static func isLinkToAnonymousPipe(_ path: String) -> Bool {
        var current = path
        for _ in 0..<8 {
            guard let target = linkTarget(current) else { return false }
            if target.hasPrefix("pipe:[") { return true }
            if target.hasPrefix("/") {
                current = target
            } else {
                let folder = current.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
                current = (folder.isEmpty && current.hasPrefix("/") ? "" : folder.isEmpty ? "." : folder) + "/" + target
            }
        }
        return false
    }

    /// Whether `path` (links followed) is a Unix socket; false when nothing is there or it cannot be read.
    static func isSocket(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFSOCK
    }

    /// `mkdir`, then `chmod` to exactly `mode` (the umask could have removed bits). Returns false,
    /// changing nothing, when something already exists at `path`.
    static func makeDirectory(_ path: String, mode: UInt32) throws -> Bool {
        if mkdir(path, mode_t(mode)) != 0 {
            let error = SystemError.fromErrno("mkdir")
            if error.isAlreadyExisting { return false }
            throw error
        }
        try setPermissions(path, mode)
        return true
    }

    static func setPermissions(_ path: String, _ mode: UInt32) throws {
        guard chmod(path, mode_t(mode)) == 0 else { throw SystemError.fromErrno("chmod") }
    }

    /// A new name for an existing file (`link`); fails with EEXIST if `newPath` exists.
    static func link(_ existingPath: String, _ newPath: String) throws {
        guard Glibc.link(existingPath, newPath) == 0 else { throw SystemError.fromErrno("link") }
    }

    /// `rename`: atomically replaces `newPath` when both are in one file system.
    static func rename(_ oldPath: String, _ newPath: String) throws {
        guard Glibc.rename(oldPath, newPath) == 0 else { throw SystemError.fromErrno("rename") }
    }

    static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 else { throw SystemError.fromErrno("unlink") }
    }

    /// `fsync` on a folder, so that renames and new names in it survive a crash of the machine.
    /// File systems that cannot do it (EINVAL and the like) count as done.
    static func synchronizeDirectory(_ path: String) throws {
        let fd = try open(path, for: .folder)
        do {
            try fd.synchronize()
        } catch let error as SystemError where error.isSyncUnsupported {
            return
        }
    }

    /// The names in a folder, without "." and "..".
    static func directoryEntries(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw SystemError.fromErrno("opendir") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Seconds since 1970, from the same clock that stamps file modification times.
    static func wallClockNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
