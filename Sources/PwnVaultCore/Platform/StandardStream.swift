import Glibc

/// Writing the program's output to stdout and stderr: every byte, retrying on EINTR and short
/// writes, with the buffer wiped afterwards (it may have held unmasked accounts for
/// `reveal --unredacted`).
public enum StandardStream {
    /// The standard streams' file descriptors (0, 1, 2).
    public static let inputDescriptor: Int32 = STDIN_FILENO
    public static let outputDescriptor: Int32 = STDOUT_FILENO
    public static let errorDescriptor: Int32 = STDERR_FILENO

    /// Why a write failed.
    public struct Failure: Error, Equatable, Sendable {
        /// The reader went away (`| head`): nobody is left to tell, and it is no error of ours.
        public let isBrokenPipe: Bool
        /// The C library's wording, lower case ("no space left on device").
        public let reason: String
    }

    /// Writes all of `text` to `fd`; nil when everything was written.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Failure? {
        var bytes = Array(text.utf8)
        defer { Sodium.wipe(&bytes) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            let error = SystemError("write", code: n < 0 ? errno : EIO)
            return Failure(isBrokenPipe: error.code == EPIPE, reason: error.reason)
        }
        return nil
    }
}
