import Glibc

/// Reading a whole input file, or standard input, by its descriptor (what `FileHandle` did for `add -`
/// and `import`), with a size limit that stops reading as soon as it is passed.
public enum InputFile {
    /// Why a file could not be read.
    public enum Failure: Error, Equatable, Sendable {
        case noSuchFile, isFolder, notReadable
        /// A read failed part way.
        case readFailed
    }

    /// The whole of standard input (`fd`, the run's: fd 0 in the binary); nil when it holds more than `limit` bytes.
    public static func readStandardInput(limit: Int = Int.max, fd: Int32 = STDIN_FILENO) throws(Failure) -> [UInt8]? {
        do { return try FileDescriptor.borrowing(fd).readAll(limit: limit) } catch { throw .readFailed }
    }

    /// The whole file at `path` (links followed); nil when it holds more than `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8]? {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .noSuchFile }   // as FileManager.fileExists said
        guard st.st_mode & S_IFMT != S_IFDIR else { throw .isFolder }
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .notReadable }
        do { return try FileDescriptor(raw: fd).readAll(limit: limit) } catch { throw .readFailed }
    }
}
