import Glibc

/// Files pwnvault loads code or data from beside itself (the phone shim, message catalogs), checked the
/// way OpenSSH's `safe_path()` checks a key file, and opened once so that the file checked is the file used.
///
/// The rule (Docs/THREAT_MODEL.md, "What pwnvault trusts on disk"):
/// - the file: a regular file (not a symbolic link), owned by root or by the invoking user (the real user
///   id), that neither its group nor others may write;
/// - every folder from `/` down to it: owned by root or by the invoking user, and not writable by its
///   group or others, unless it is sticky (`/tmp`: nobody may rename or remove another's entry) and
///   owned by root or the user.
///
/// The folders are resolved once (`realpath`), then walked from `/` with `openat(O_NOFOLLOW)`, each
/// step checked on the descriptor it opened (`fstat`), and the file is opened from its checked folder
/// with `O_NOFOLLOW`: a link swapped in at any moment makes the walk fail, never redirects it. Someone
/// who can change any of these folders or the file could have replaced what is loaded, so the file is
/// refused. A development build in a checkout the user owns passes as it is (`.build/debug`).
public enum TrustedPath {
    /// Why a file or folder is not trusted; `path` is the one that failed.
    public enum Refusal: Error, Equatable, Sendable {
        /// Nothing at the path (or a folder on the way is missing).
        case missing(path: String)
        /// A symbolic link where the file must be (links to it are not followed).
        case symbolicLink(path: String)
        /// Not a regular file (or, on the way, not a folder).
        case notRegularFile(path: String)
        /// Owned by `owner`, neither root nor the invoking user.
        case foreignOwner(path: String, owner: UInt32)
        /// Its group or others may write it (`mode`: its permission bits).
        case writableByOthers(path: String, mode: UInt32)
        /// It could not be opened or examined (`reason`: the system's words).
        case unreadable(path: String, reason: String)

        /// The file or folder that failed.
        public var path: String {
            switch self {
            case let .missing(path), let .symbolicLink(path), let .notRegularFile(path),
                 let .foreignOwner(path, _), let .writableByOthers(path, _), let .unreadable(path, _): return path
            }
        }
    }

    /// The user whose files are trusted besides root's: the real user id (who ran pwnvault).
    static var invokingUser: UInt32 { UInt32(getuid()) }

    /// `O_PATH` (Linux, the same value on every architecture pwnvault builds for); Swift's Glibc module
    /// leaves it out (it needs `_GNU_SOURCE`).
    private static let openPath: Int32 = 0o10000000

    /// Opens `path` read-only once it and every folder above it pass the rule; the descriptor is the
    /// file that was checked (load it through `/proc/self/fd/N`, never by its path again).
    static func open(_ path: String, user: UInt32 = invokingUser) -> Result<FileDescriptor, Refusal> {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return .failure(.missing(path: path)) }
        let name = String(path[path.index(after: slash)...])
        let folderPath = slash == path.startIndex ? "/" : String(path[..<slash])
        guard !name.isEmpty, name != ".", name != ".." else { return .failure(.notRegularFile(path: path)) }
        let folder: FileDescriptor
        switch openFolder(folderPath, user: user) {
        case let .success(fd): folder = fd
        case let .failure(refusal): return .failure(refusal)
        }
        defer { try? folder.close() }
        let fd = openat(folder.raw, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(refusal(opening: name, in: folder.raw, shownAs: path)) }
        let file = FileDescriptor(raw: fd)
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = SystemError.fromErrno("fstat").description
            try? file.close()
            return .failure(.unreadable(path: path, reason: reason))
        }
        let status = FileStatus(st)
        if let refusal = check(status, path: path, user: user, expected: .regular) {
            try? file.close()
            return .failure(refusal)
        }
        return .success(file)
    }

    /// Whether the folder at `path` and every folder above it pass the rule (for a folder whose files
    /// are then opened by path, like gettext's catalogs: nobody else can change anything below it).
    static func checkFolder(_ path: String, user: UInt32 = invokingUser) -> Refusal? {
        switch openFolder(path, user: user) {
        case let .success(fd): try? fd.close(); return nil
        case let .failure(refusal): return refusal
        }
    }

    /// Whether the file at `path` passes (opened and closed again; for reports such as `doctor`).
    static func checkFile(_ path: String, user: UInt32 = invokingUser) -> Refusal? {
        switch open(path, user: user) {
        case let .success(fd): try? fd.close(); return nil
        case let .failure(refusal): return refusal
        }
    }

    /// The folder `path` resolved once, walked from `/`, each step checked; an `O_PATH` descriptor of it.
    private static func openFolder(_ path: String, user: UInt32) -> Result<FileDescriptor, Refusal> {
        guard let resolvedPointer = realpath(path, nil) else {
            let error = SystemError.fromErrno("realpath")
            return .failure(error.isNotFound ? .missing(path: path) : .unreadable(path: path, reason: error.description))
        }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)
        var current = Glibc.open("/", openPath | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return .failure(.unreadable(path: "/", reason: SystemError.fromErrno("open").description)) }
        var shown = ""
        var components = resolved.split(separator: "/").map(String.init)[...]
        while true {
            var st = stat()
            guard fstat(current, &st) == 0 else {
                let reason = SystemError.fromErrno("fstat").description
                Glibc.close(current)
                return .failure(.unreadable(path: shown.isEmpty ? "/" : shown, reason: reason))
            }
            if let refusal = check(FileStatus(st), path: shown.isEmpty ? "/" : shown, user: user, expected: .directory) {
                Glibc.close(current)
                return .failure(refusal)
            }
            guard let next = components.popFirst() else { return .success(FileDescriptor(raw: current)) }
            shown += "/" + next
            let fd = openat(current, next, openPath | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 {
                let refusal = refusal(opening: next, in: current, shownAs: shown)
                Glibc.close(current)
                return .failure(refusal)
            }
            Glibc.close(current)
            current = fd
        }
    }

    /// Why `openat(folder, name)` failed, in the rule's terms (a link, a missing entry, or the system's words).
    private static func refusal(opening name: String, in folder: Int32, shownAs path: String) -> Refusal {
        let error = SystemError.fromErrno("open")
        var st = stat()
        if fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            let status = FileStatus(st)
            if status.kind == .symbolicLink { return .symbolicLink(path: path) }
            if error.code == ENOTDIR { return .notRegularFile(path: path) }
        }
        return error.isNotFound ? .missing(path: path) : .unreadable(path: path, reason: error.description)
    }

    /// The rule for one file or folder.
    private static func check(_ status: FileStatus, path: String, user: UInt32, expected: FileStatus.Kind) -> Refusal? {
        guard status.kind == expected else { return .notRegularFile(path: path) }
        guard status.owner == 0 || status.owner == user else { return .foreignOwner(path: path, owner: status.owner) }
        if status.isWritableByOthers {
            // A sticky folder (/tmp) lets others add entries but not rename or remove this one's.
            let sticky = expected == .directory && status.permissions & UInt32(S_ISVTX) != 0
            if !sticky { return .writableByOthers(path: path, mode: status.permissions) }
        }
        return nil
    }
}
