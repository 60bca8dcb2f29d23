/// Reads and writes the bytes of one vault file, crash-safely, with the file and its folder kept
/// private to the user. The bytes are opaque here (their format is `VaultFile`'s business).
///
/// Guarantees:
/// - `replace` is atomic: whatever instant the process (or the machine) dies, the vault path holds
///   the old bytes or the new bytes in full, never a mix or a partial file. The previous generation
///   is kept as `<name>.bak`, itself replaced atomically.
/// - Nothing is read from a file, or written into a folder, that other users could change.
/// - `withExclusiveLock` serialises read-modify-write between processes (and threads).
///
/// A `VaultStore` holds no open files; it is cheap, `Sendable`, and many may exist for one path.
public struct VaultStore: Sendable {
    /// No vault is anywhere near this size; reading stops here instead of filling memory.
    public static let maximumSize = 64 << 20
    /// How long `withExclusiveLock` waits by default.
    public static let defaultLockTimeout: Duration = .seconds(30)
    /// Temporary files written outside the vault's lock (`WatchRunLog`'s) are a killed run's
    /// leftovers once older than this. The vault's own are removed under the lock, whatever their age.
    static let staleTemporaryAge: Double = 60

    public let location: VaultLocation

    public init(location: VaultLocation) {
        self.location = location
    }

    /// The vault file's path.
    public var path: String { location.path }
    /// Where the previous generation is kept.
    public var backupPath: String { location.backupPath }

    /// Whether anything exists at the vault path (even something `read` would refuse).
    public var exists: Bool {
        do {
            return try FileSystem.status(path, followingLinks: false) != nil
        } catch {
            return true   // present but unreachable (e.g. permission denied): let `read` explain
        }
    }

    // MARK: Reading

    /// Whether anything exists at the backup path (even something `readBackup` would refuse).
    public var backupExists: Bool {
        do {
            return try FileSystem.status(backupPath, followingLinks: false) != nil
        } catch {
            return true   // present but unreachable: better to stop than to lose it
        }
    }

    /// The vault's bytes. Checks, before reading a byte, that the folder and the file belong to the
    /// user and that nobody else can write the folder or access the file.
    /// Throws `VaultStoreError` (`.notFound` when there is no vault, `.notFoundButBackup` when only
    /// its backup is there).
    public func read() throws -> [UInt8] {
        guard let bytes = try readChecked(path) else {
            if backupExists {
                throw VaultStoreError.notFoundButBackup(path: location.displayPath, backup: location.display(backupPath))
            }
            throw VaultStoreError.notFound(path: location.displayPath)
        }
        return bytes
    }

    /// The previous generation (`<name>.bak`), with the same checks; nil when there is none.
    public func readBackup() throws -> [UInt8]? {
        try readChecked(backupPath)
    }

    private func readChecked(_ file: String) throws -> [UInt8]? {
        let shown = location.display(file)
        guard try checkFolder(create: false) else { return nil }
        let fd: FileDescriptor
        do {
            fd = try FileSystem.open(file, for: .readExisting)
        } catch let error as SystemError {
            if error.isNotFound { return nil }
            if error.isSymbolicLink { throw VaultStoreError.notARegularFile(path: shown, what: phrase("a symbolic link")) }
            throw VaultStoreError.readFailed(path: shown, reason: error.reason)
        }
        do {
            let status = try fd.status()
            try checkFile(status, shown: shown)
            guard status.size <= Self.maximumSize, let bytes = try fd.readAll(limit: Self.maximumSize, expectedSize: status.size) else {
                throw VaultStoreError.tooLarge(path: shown, size: status.size)
            }
            return bytes
        } catch let error as SystemError {
            throw VaultStoreError.readFailed(path: shown, reason: error.reason)
        }
    }

    // MARK: Writing

    /// Writes a new vault; refuses (`.alreadyExists`) if anything is at the path, and
    /// (`.backupInTheWay`) if a backup is: the new vault's first save would replace it, and with it
    /// the only copy of an earlier vault's accounts. Creates the folder
    /// and any missing parents with mode 0700. The file appears complete or not at all: it is
    /// written to a temporary file first and then linked into place, which fails if the path exists.
    public func create(_ bytes: [UInt8]) throws {
        let shown = location.displayPath
        if exists { throw VaultStoreError.alreadyExists(path: shown) }
        if backupExists { throw VaultStoreError.backupInTheWay(path: shown, backup: location.display(backupPath)) }
        _ = try checkFolder(create: true)
        do {
            let temporary = try writeTemporary(bytes)
            defer { try? FileSystem.removeFile(temporary) }
            do {
                try FileSystem.link(temporary, path)
            } catch let error as SystemError where error.isLinkUnsupported {
                try writeInPlaceExclusively(bytes)
            }
        } catch let error as SystemError {
            if error.isAlreadyExisting { throw VaultStoreError.alreadyExists(path: shown) }
            throw VaultStoreError.writeFailed(path: shown, reason: error.reason)
        }
        try synchronizeFolder()
    }

    /// Replaces the vault's bytes atomically and durably, keeping the previous generation as
    /// `<name>.bak`. On failure (full disk, file-size limit, I/O error, read-only folder) the vault
    /// is untouched, the temporary file is removed, and `.writeFailed` says why.
    ///
    /// Does not take the lock itself, and MUST be called holding it: wrap the read, the change and
    /// this call in `withExclusiveLock`. It first removes what saves killed earlier left behind.
    public func replace(_ bytes: [UInt8]) throws {
        let shown = location.displayPath
        _ = try checkFolder(create: true)
        removeLeftoverTemporaries()
        do {
            let temporary = try writeTemporary(bytes)
            var renamed = false
            defer { if !renamed { try? FileSystem.removeFile(temporary) } }
            try keepPreviousGeneration()
            try FileSystem.rename(temporary, path)
            renamed = true
        } catch let error as SystemError {
            throw VaultStoreError.writeFailed(path: shown, reason: error.reason)
        }
        try synchronizeFolder()
    }

    /// A complete, flushed, 0600 temporary file in the vault's folder holding `bytes`; returns its path.
    private func writeTemporary(_ bytes: [UInt8]) throws -> String {
        let (fd, temporary) = try FileSystem.createTemporaryFile(prefix: location.temporaryPrefix)
        do {
            try fd.writeAll(bytes)
            try fd.synchronize()
            try fd.close()
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error
        }
        return temporary
    }

    /// Makes `<name>.bak` the current vault, atomically: a second name for the current vault is made
    /// under a temporary name, then renamed over the backup. A crash at any point leaves the old
    /// backup or the new one. Without a current vault there is nothing to keep.
    private func keepPreviousGeneration() throws {
        var linkPath: String?
        do {
            for _ in 0..<100 {
                let candidate = location.temporaryPrefix + FileSystem.randomSuffix()
                do {
                    try FileSystem.link(path, candidate)
                    linkPath = candidate
                    break
                } catch let error as SystemError where error.isAlreadyExisting {
                    continue
                }
            }
        } catch let error as SystemError where error.isNotFound {
            return
        } catch let error as SystemError where error.isLinkUnsupported {
            // No hard links on this file system: keep a copy instead (same atomic rename).
            guard let current = try readChecked(path) else { return }
            linkPath = try writeTemporary(current)
        }
        guard let linkPath else { throw SystemError.alreadyExists("link") }
        do {
            try FileSystem.rename(linkPath, backupPath)
        } catch {
            try? FileSystem.removeFile(linkPath)
            throw error
        }
        // When the backup already is the current vault (a save killed between its two renames leaves
        // them one file), rename(2) of one link over another of the same file does nothing and
        // succeeds: the temporary link would stay. Normally it is gone, and this finds nothing.
        try? FileSystem.removeFile(linkPath)
    }

    /// Fallback for file systems without hard links: create the vault exclusively and fill it.
    private func writeInPlaceExclusively(_ bytes: [UInt8]) throws {
        let fd = try FileSystem.open(path, for: .createExclusively)
        do {
            try fd.setPermissions(0o600)
            try fd.writeAll(bytes)
            try fd.synchronize()
            try fd.close()
        } catch {
            try? FileSystem.removeFile(path)   // ours: created exclusively above
            throw error
        }
    }

    private func synchronizeFolder() throws {
        do {
            try FileSystem.synchronizeDirectory(location.folder)
        } catch let error as SystemError {
            throw VaultStoreError.syncFailed(path: location.displayPath, reason: error.reason)
        }
    }

    /// Removes what saves killed earlier (kill -9, a crash, a power cut) left behind: regular files
    /// of ours named exactly `.<name>.tmp-XXXXXX` (six characters of `mkstemp`'s alphabet), whatever
    /// their age. Called holding the lock, before this save writes its own: every save writes its
    /// temporary files (the backup's link included) holding the lock, so none found now belongs to
    /// a live save. `create` writes one without the lock, but only while no vault exists at the
    /// path, and a save needs one: at worst a racing `init` that already lost (the vault appeared)
    /// says it failed to write rather than that the vault exists. Nothing else is touched: not
    /// another vault's, not `.<name>.watch.tmp-…`, not a name one character off. Best effort: a
    /// leftover is harmless; removing it first also frees the space a full disk needs for this save.
    private func removeLeftoverTemporaries() {
        let prefix = "." + location.fileName + ".tmp-"
        guard let names = try? FileSystem.directoryEntries(location.folder) else { return }
        for name in names where Self.isTemporaryName(name, prefix: prefix) {
            let full = Settings.join(location.folder, name)
            guard let status = try? FileSystem.status(full, followingLinks: false),
                  status.kind == .regular, status.owner == FileSystem.effectiveUserID else { continue }
            try? FileSystem.removeFile(full)
        }
    }

    static func isTemporaryName(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let suffix = name.dropFirst(prefix.count)
        return suffix.count == FileSystem.temporarySuffixLength
            && suffix.allSatisfy { FileSystem.temporarySuffixAlphabet.contains($0) }
    }

    // MARK: Locking

    /// Runs `body` holding an exclusive `flock` on `<name>.lock` (created 0600 if needed, never
    /// deleted), so that two pwnvault processes changing one vault lose neither change. Waits up to
    /// `timeout`, then throws `.lockTimeout`. Errors from `body` pass through unchanged.
    ///
    /// The lock is per open file description: two calls in one process (on any threads) also exclude
    /// each other, and a nested call from inside `body` would wait for the timeout.
    public func withExclusiveLock<T>(timeout: Duration = VaultStore.defaultLockTimeout,
                                     _ body: () throws -> T) throws -> T {
        let shown = location.displayPath
        _ = try checkFolder(create: true)
        let fd: FileDescriptor
        do {
            fd = try FileSystem.open(location.lockPath, for: .lockFile)
            let status = try fd.status()
            let lockShown = location.display(location.lockPath)
            guard status.kind == .regular else { throw VaultStoreError.notARegularFile(path: lockShown, what: phrase("not a file")) }
            guard status.owner == FileSystem.effectiveUserID else {
                throw VaultStoreError.notOwned(path: lockShown, owner: status.owner)
            }
            if status.permissions != 0o600 { try fd.setPermissions(0o600) }
            guard try fd.lockExclusively(timeout: timeout) else {
                let seconds = Int((Double(timeout.nanoseconds) / 1e9).rounded(.up))
                throw VaultStoreError.lockTimeout(path: shown, seconds: seconds)
            }
        } catch let error as SystemError {
            if error.isSymbolicLink {
                throw VaultStoreError.notARegularFile(path: location.display(location.lockPath), what: phrase("a symbolic link"))
            }
            throw VaultStoreError.lockFailed(path: shown, reason: error.reason)
        }
        defer {
            fd.unlock()
            try? fd.close()
        }
        return try body()
    }

    // MARK: Safety checks

    /// Checks the vault's folder: a folder, ours, not writable by group or others. Returns false
    /// when it does not exist and `create` is false; with `create`, makes it (and missing parents)
    /// with mode 0700 whatever the umask.
    @discardableResult
    private func checkFolder(create: Bool) throws -> Bool {
        let folder = location.folder
        let shown = location.displayFolder
        do {
            var status = try FileSystem.status(folder, followingLinks: true)
            if status == nil {
                guard create else { return false }
                try makeFolders(folder)
                status = try FileSystem.status(folder, followingLinks: true)
            }
            guard let status else { throw SystemError.notFound("stat") }
            guard status.kind == .directory else { throw VaultStoreError.notAFolder(path: shown) }
            guard status.owner == FileSystem.effectiveUserID else {
                throw VaultStoreError.notOwned(path: shown, owner: status.owner)
            }
            guard !status.isWritableByOthers else {
                throw VaultStoreError.unsafeFolderPermissions(path: shown, mode: status.permissions)
            }
            return true
        } catch let error as SystemError {
            if create { throw VaultStoreError.writeFailed(path: location.displayPath, reason: error.reason) }
            throw VaultStoreError.readFailed(path: location.displayPath, reason: error.reason)
        }
    }

    /// `mkdir -p` with every folder it makes set to 0700; folders that exist are left alone. Each new
    /// folder's parent is flushed, so that the new vault's path survives a crash of the machine.
    private func makeFolders(_ folder: String) throws {
        var missing: [String] = []
        var current = folder
        while current != "/", try FileSystem.status(current, followingLinks: true) == nil {
            missing.append(current)
            let slash = current.lastIndex(of: "/")!
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
        for folder in missing.reversed() {
            _ = try FileSystem.makeDirectory(folder, mode: 0o700)   // false: made meanwhile; checked after
            let slash = folder.lastIndex(of: "/")!
            try FileSystem.synchronizeDirectory(slash == folder.startIndex ? "/" : String(folder[..<slash]))
        }
    }

    /// The vault file (or backup) must be a regular file of ours that nobody else can access.
    private func checkFile(_ status: FileStatus, shown: String) throws {
        guard status.kind == .regular else {
            throw VaultStoreError.notARegularFile(path: shown, what: status.kind == .directory ? phrase("a folder") : phrase("a special file"))
        }
        guard status.owner == FileSystem.effectiveUserID else {
            throw VaultStoreError.notOwned(path: shown, owner: status.owner)
        }
        guard !status.isAccessibleByOthers else {
            throw VaultStoreError.unsafePermissions(path: shown, mode: status.permissions)
        }
    }
}
