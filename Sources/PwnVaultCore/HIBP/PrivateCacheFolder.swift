import Foundation
import Glibc

/// pwnvault's cache folder (`$XDG_CACHE_HOME/pwnvault`): 0700, ours, and files in it 0600, written
/// atomically (temp file, fsync, rename). It holds only public data (the breach catalog) and
/// non-secret facts (an API key's rate limit, under a fingerprint of the key).
public struct PrivateCacheFolder: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The file's bytes, or nil when it is absent, not a regular file, or larger than `maxBytes`.
    public func read(_ name: String, maxBytes: Int) -> Data? {
        let path = directory.appendingPathComponent(name).path
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= off_t(maxBytes) else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    /// Replaces the file atomically, creating the folder (0700) when needed.
    public func write(_ data: Data, as name: String) throws {
        try prepareDirectory()
        let target = directory.appendingPathComponent(name).path
        let temp = directory.appendingPathComponent(".\(name).\(Sodium.hex(Sodium.randomData(6))).tmp").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(errno, path: target) }
        var ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { if n == 0 { errno = EIO }; return false }   // 0 would loop forever
                offset += n
            }
            return true
        }
        var code = ok ? 0 : errno
        if ok, fsync(fd) != 0 { ok = false; code = errno }
        close(fd)
        if ok, rename(temp, target) != 0 { ok = false; code = errno }
        guard ok else {
            unlink(temp)
            throw failure(code, path: target)
        }
    }

    /// Creates the folder 0700, or checks that the existing one is a real folder owned by us and
    /// takes group and other permissions away from it.
    private func prepareDirectory() throws {
        let path = directory.path
        var st = stat()
        if lstat(path, &st) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw BreachCatalogError.writeFailed(path: path, reason: "the folder could not be created")
            }
            guard lstat(path, &st) == 0 else { throw failure(errno, path: path) }
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == geteuid() else {
            throw BreachCatalogError.unsafeCacheDirectory(path: path)
        }
        if st.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 { throw failure(errno, path: path) }
    }

    private func failure(_ code: Int32, path: String) -> BreachCatalogError {
        .writeFailed(path: path, reason: String(cString: strerror(code)).lowercased())
    }
}
