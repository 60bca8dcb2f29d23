import Glibc

/// For writing unmasked data deliberately: when stdout is a regular file (`> file`), the shell created
/// it with the user's umask; this narrows it to 0600 before anything is written.
public enum StandardOutputFile {
    /// Whether stdout is a regular file; when it is, its mode is set to 0600.
    @discardableResult
    public static func restrictIfRegularFile() throws -> Bool {
        do {
            let out = FileDescriptor(raw: dup(STDOUT_FILENO))
            guard out.raw >= 0 else { throw SystemError.fromErrno("dup") }
            guard try out.status().kind == .regular else { return false }
            try out.setPermissions(0o600)
            return true
        } catch let e as SystemError {
            throw OutputFileError(reason: e.reason)
        }
    }
}

/// The output file could not be made private; nothing was written to it.
public struct OutputFileError: UserFacingError {
    public let reason: String
    public var message: String { msg("cannot make the output file private ({1}); nothing was written", reason) }
    public var hint: String? { msg("write to a file you own on a local file system") }
    public var exitStatus: ExitStatus { .vault }
}
