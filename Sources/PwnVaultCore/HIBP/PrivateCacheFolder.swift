import FoundationEssentials

/// pwnvault's cache folder (`$XDG_CACHE_HOME/pwnvault`): 0700, ours, and files in it 0600, written
/// atomically (temp file, fsync, rename, fsync of the folder) through the same Platform calls the
/// vault store uses. It holds only public data (the breach catalog) and non-secret facts (an API
/// key's rate limit, under a fingerprint of the key).
public struct PrivateCacheFolder: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The file's bytes, or nil when it is absent, not a regular file, or larger than `maxBytes`.
    public func read(_ name: String, maxBytes: Int) -> Data? {
        let path = directory.appendingPathComponent(name).path
        guard let status = try? FileSystem.status(path, followingLinks: false), status.kind == .regular,
              status.size <= maxBytes,
              let file = try? FileSystem.open(path, for: .readExisting),
              let bytes = try? file.readAll(limit: maxBytes) else { return nil }
        return Data(bytes)
    }

    /// Replaces the file atomically, creating the folder (0700) when needed.
    public func write(_ data: Data, as name: String) throws {
        let target = directory.appendingPathComponent(name).path
        do {
            try prepareDirectory()
            let (file, temp) = try FileSystem.createTemporaryFile(prefix: directory.appendingPathComponent(".\(name).").path)
            do {
                try file.writeAll([UInt8](data))
                try file.synchronize()
                try file.close()
                try FileSystem.rename(temp, target)
            } catch {
                try? FileSystem.removeFile(temp)
                throw error
            }
            try FileSystem.synchronizeDirectory(directory.path)
        } catch let e as SystemError {
            throw BreachCatalogError.writeFailed(path: target, reason: e.reason)
        }
    }

    /// Creates the folder 0700, or checks that the existing one is a real folder owned by us and
    /// takes group and other permissions away from it.
    private func prepareDirectory() throws {
        let path = directory.path
        if try FileSystem.status(path, followingLinks: false) == nil {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw BreachCatalogError.writeFailed(path: path, reason: phrase("the folder could not be created"))
            }
        }
        guard let status = try FileSystem.status(path, followingLinks: false), status.kind == .directory,
              status.owner == FileSystem.effectiveUserID else {
            throw BreachCatalogError.unsafeCacheDirectory(path: path)
        }
        if status.isAccessibleByOthers { try FileSystem.setPermissions(path, 0o700) }
    }
}
