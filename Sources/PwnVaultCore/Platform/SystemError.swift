import Glibc

/// A failed system call: which call, and the `errno` it left. The one place where `errno` becomes a
/// Swift value; everything above the Platform folder sees this type, never `errno` itself.
struct SystemError: Error, Equatable, CustomStringConvertible {
    /// The call that failed, for developers ("open", "rename", ...). Never shown to users on its own.
    let operation: String
    /// The `errno` value.
    let code: Int32

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The error the last failed call left in `errno`.
    static func fromErrno(_ operation: String) -> SystemError {
        SystemError(operation, code: errno)
    }

    /// The C library's wording in lower case, e.g. "no space left on device", "file too large".
    var reason: String { String(cString: strerror(code)).lowercased() }

    var description: String { "\(operation): \(reason)" }

    /// "No such file or directory", for checks that find nothing where something must be.
    static func notFound(_ operation: String) -> SystemError { SystemError(operation, code: ENOENT) }
    /// "File exists".
    static func alreadyExists(_ operation: String) -> SystemError { SystemError(operation, code: EEXIST) }

    /// The path (or one of its folders) does not exist.
    var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
    /// The path already exists.
    var isAlreadyExisting: Bool { code == EEXIST }
    /// The last component is a symbolic link and `O_NOFOLLOW` was given.
    var isSymbolicLink: Bool { code == ELOOP }
    /// The file system cannot make hard links (FAT, some network and FUSE file systems).
    var isLinkUnsupported: Bool { code == EPERM || code == EOPNOTSUPP || code == ENOSYS || code == EMLINK }
    /// `fsync` on a folder is not supported by this file system; nothing could be flushed anyway.
    var isSyncUnsupported: Bool { code == EINVAL || code == EROFS || code == ENOTSUP }
}
